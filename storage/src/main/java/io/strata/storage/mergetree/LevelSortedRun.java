package io.strata.storage.mergetree;

/** A sorted run and the level it lives on. */
public final class LevelSortedRun {
    private final int level;
    private final SortedRun run;

    public LevelSortedRun(int level, SortedRun run) {
        this.level = level;
        this.run = run;
    }

    public int level() {
        return level;
    }

    public SortedRun run() {
        return run;
    }

    @Override
    public String toString() {
        return "L" + level + "(" + run.files().size() + " files, " + run.totalSize() + " bytes)";
    }
}
