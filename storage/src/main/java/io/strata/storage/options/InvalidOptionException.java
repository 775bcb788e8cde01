package io.strata.storage.options;

/**
 * A set of table options that Strata does not accept: an unknown key, a value that does not
 * parse, a value out of its declared range, or two options that contradict each other
 * ({@link OptionRules}). The message names the option(s) and the value(s); the code that knows
 * the owner (a table, a schema file) prefixes it.
 */
public final class InvalidOptionException extends IllegalArgumentException {
    public InvalidOptionException(String message) {
        super(message);
    }

    public InvalidOptionException(String message, Throwable cause) {
        super(message, cause);
    }
}
