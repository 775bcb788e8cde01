package io.strata.storage.data;

/**
 * The change a row carries. Stored in every primary-key data file as {@code _ROW_KIND} with the
 * byte values below; the values are part of the file format and never change.
 */
public enum RowKind {
    INSERT("+I", (byte) 0),
    UPDATE_BEFORE("-U", (byte) 1),
    UPDATE_AFTER("+U", (byte) 2),
    DELETE("-D", (byte) 3);

    private final String shortString;
    private final byte value;

    RowKind(String shortString, byte value) {
        this.shortString = shortString;
        this.value = value;
    }

    public String shortString() {
        return shortString;
    }

    public byte toByteValue() {
        return value;
    }

    /** -U and -D retract a previous row; +I and +U add one. */
    public boolean isRetract() {
        return this == UPDATE_BEFORE || this == DELETE;
    }

    public static RowKind fromByteValue(int value) {
        switch (value) {
            case 0:
                return INSERT;
            case 1:
                return UPDATE_BEFORE;
            case 2:
                return UPDATE_AFTER;
            case 3:
                return DELETE;
            default:
                throw new IllegalArgumentException(
                        "unknown row kind byte " + value + " (known: 0 = +I, 1 = -U, 2 = +U, 3 = -D)");
        }
    }

    public static RowKind fromShortString(String s) {
        for (RowKind k : values()) {
            if (k.shortString.equals(s)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown row kind '" + s + "' (expected +I, -U, +U or -D)");
    }
}
