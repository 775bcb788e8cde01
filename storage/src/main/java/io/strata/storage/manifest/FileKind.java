package io.strata.storage.manifest;

/** Whether a manifest entry adds or deletes a file. Persisted by byte value. */
public enum FileKind {
    ADD((byte) 0),
    DELETE((byte) 1);

    private final byte value;

    FileKind(byte value) {
        this.value = value;
    }

    public byte value() {
        return value;
    }

    public static FileKind fromValue(int v) {
        switch (v) {
            case 0:
                return ADD;
            case 1:
                return DELETE;
            default:
                throw new IllegalArgumentException("unknown file kind " + v + " (known: 0 = add, 1 = delete)");
        }
    }
}
