package io.strata.storage.format;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The unique part of new data and changelog file names, {@code <uuid>-<n>}: one uuid, numbered from
 * 0. A bucket's {@link DataFilePathFactory} without a writer gets its own uuid; all the factories of
 * a registered writer share one, the writer's registration token, so every file the writer creates
 * names it (orphan cleanup keeps such files while the registration's heartbeat is fresh). Names stay
 * unique table-wide either way: a uuid is never reused, and its numbers only grow. Thread-safe.
 */
public final class DataFileNames {
    private static final Pattern NAME =
            Pattern.compile("-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-[0-9]+\\.parquet");

    private final String uuid;
    private final Runnable beforeNewName;
    private final AtomicLong counter = new AtomicLong();

    /**
     * @param uuid a random UUID, in its canonical lower-case form, used for no other names
     * @param beforeNewName runs before each name is handed out (a writer registers or renews its
     *     heartbeat there); an exception from it fails the file's creation
     */
    public DataFileNames(String uuid, Runnable beforeNewName) {
        if (!uuid.equals(UUID.fromString(uuid).toString())) {
            throw new IllegalArgumentException("not a canonical UUID: " + uuid);
        }
        this.uuid = uuid;
        this.beforeNewName = beforeNewName;
    }

    /** Names of their own: a fresh uuid that no registration names. */
    public static DataFileNames unregistered() {
        return new DataFileNames(UUID.randomUUID().toString(), () -> {});
    }

    public String uuid() {
        return uuid;
    }

    /** The next {@code <uuid>-<n>}. */
    String next() {
        beforeNewName.run();
        return uuid + "-" + counter.getAndIncrement();
    }

    /**
     * The uuid in a name made by {@link DataFilePathFactory} ({@code <prefix>-<uuid>-<n>.parquet}),
     * also inside a hidden temporary of such a file; null for any other name.
     */
    public static String uuidOf(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.find() ? m.group(1) : null;
    }
}
