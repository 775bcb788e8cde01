package io.strata.storage.table;

/** The named table does not exist in the warehouse. */
public class TableNotFoundException extends RuntimeException {
    public TableNotFoundException(String message) {
        super(message);
    }
}
