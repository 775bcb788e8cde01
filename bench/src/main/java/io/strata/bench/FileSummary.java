package io.strata.bench;

/** The data files of one snapshot of a table: how many, the rows they hold (deletes included) and their bytes. */
public record FileSummary(int files, long rows, long bytes) {
    @Override
    public String toString() {
        return files + " files, " + rows + " rows, " + bytes + " bytes";
    }
}
