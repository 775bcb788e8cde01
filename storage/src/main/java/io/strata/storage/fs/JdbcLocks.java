package io.strata.storage.fs;

import java.io.IOException;
import java.net.InetAddress;
import java.sql.SQLException;
import java.util.UUID;
import java.util.regex.Pattern;

/** Small pieces of {@link JdbcCommitLock}: holder ids, error classification, URL redaction. */
final class JdbcLocks {
    private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");

    private JdbcLocks() {}

    /** {@code host/pid/uuid}: unique per acquisition, and says who holds a lock when one is stuck. */
    static String holderId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown-host";
        }
        return host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID();
    }

    /**
     * True for failures that mean "someone else got there first" and are retried: integrity
     * violations (a concurrent insert of the row, SQLSTATE class 23), transaction rollbacks and
     * serialization failures (class 40), and lock timeouts (H2's HYT00, PostgreSQL's 55P03).
     */
    static boolean isContention(SQLException e) {
        String state = e.getSQLState();
        return state != null
                && (state.startsWith("23") || state.startsWith("40") || state.equals("HYT00") || state.equals("55P03"));
    }

    /** A JDBC URL fit for messages and logs: password parameters masked. */
    static String redact(String url) {
        return PASSWORD.matcher(url).replaceAll("$1***");
    }
}
