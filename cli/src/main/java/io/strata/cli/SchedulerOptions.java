package io.strata.cli;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.ops.OperationKind;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options the {@code strata scheduler} commands share, declared once and added to each
 * command with {@code @Mixin}: the option names, labels and help texts a command shows are the
 * ones here.
 */
final class SchedulerOptions {
    private SchedulerOptions() {}

    /** {@code --config}: the scheduler config every scheduler command reads. */
    static final class Config {
        @Option(names = "--config", required = true, paramLabel = "FILE", description = "The scheduler config.")
        File file;

        /** The config, loaded and checked; a {@code ConfigException} names the key, line and column. */
        SchedulerConfig load() {
            return ConfigLoader.load(file.toPath());
        }
    }

    /**
     * {@code --table} and {@code --operation} of pause and resume: both optional, an absent one
     * meaning every table or every operation.
     */
    static final class Scope {
        @Option(names = "--table", paramLabel = "DB.TABLE", description = "The table (default: every table).")
        String table;

        @Option(names = "--operation", paramLabel = "OP", description = "The operation (default: every one).")
        String operation;

        Optional<String> table() {
            return Optional.ofNullable(table);
        }

        /** The operation's key; an unknown one is an error naming the known ones. */
        Optional<String> operation() {
            return Optional.ofNullable(operation)
                    .map(o -> SchedulerOptions.operation(o).key());
        }

        /** The scope as the commands print it, for example {@code db.t / every operation}. */
        String describe() {
            return table().orElse("every table") + " / " + operation().orElse("every operation");
        }
    }

    /** {@code --table}, required: the one table a command acts on. */
    static final class Table {
        @Option(names = "--table", required = true, paramLabel = "DB.TABLE", description = "The table.")
        String table;

        String name() {
            return table;
        }
    }

    /** The operation named on the command line; a clear error naming the known ones otherwise. */
    static OperationKind operation(String key) {
        try {
            return OperationKind.ofKey(key);
        } catch (IllegalArgumentException e) {
            List<String> known = new ArrayList<>();
            for (OperationKind k : OperationKind.values()) {
                known.add(k.key());
            }
            throw new IllegalArgumentException(
                    "unknown operation '" + key + "'; known: " + String.join(", ", known), e);
        }
    }
}
