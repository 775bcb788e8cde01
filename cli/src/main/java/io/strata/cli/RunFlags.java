package io.strata.cli;

import io.strata.storage.options.ConfigOption;
import io.strata.storage.options.InvalidOptionException;
import io.strata.storage.table.FileStoreTable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The table options of one run that a command's flags set ({@code --retain-min} sets
 * {@code snapshot.num-retained.min}, ...). An option the table refuses is named with the flag
 * that set it, since the user typed the flag, not the option.
 */
final class RunFlags {
    private final Map<String, String> options = new LinkedHashMap<>();
    private final Map<String, String> flags = new LinkedHashMap<>();

    /** Sets {@code option} to {@code value} for the run, unless {@code value} is null (flag not given). */
    RunFlags put(String flag, ConfigOption<?> option, Object value) {
        if (value != null) {
            options.put(option.key(), String.valueOf(value));
            flags.put(option.key(), flag);
        }
        return this;
    }

    Map<String, String> options() {
        return options;
    }

    /**
     * {@code table} with the run's options.
     *
     * @throws IllegalArgumentException the table's refusal, followed by the flags behind the
     *         options it names
     */
    FileStoreTable open(FileStoreTable table) {
        try {
            return table.copyWithOptions(options);
        } catch (InvalidOptionException e) {
            StringBuilder named = new StringBuilder();
            flags.forEach((key, flag) -> {
                if (e.getMessage().contains("'" + key + "'")) {
                    named.append(named.length() == 0 ? " (" : ", ")
                            .append(flag)
                            .append(" sets ")
                            .append(key);
                }
            });
            throw new IllegalArgumentException(e.getMessage() + (named.length() == 0 ? "" : named + ")"), e);
        }
    }
}
