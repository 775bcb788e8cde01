package io.strata.storage.options;

import java.time.Duration;

/** Automatic tags, created by whichever process commits (Paimon's names and defaults). */
public final class TagOptions {
    private TagOptions() {}

    /** When tags are created without being asked for. */
    public enum AutomaticCreation {
        /** Never. */
        NONE,
        /** Once per period of the committing process's clock, for the period that ended. */
        PROCESS_TIME
    }

    /** The period an automatic tag covers. */
    public enum Period {
        DAILY,
        HOURLY
    }

    public static final ConfigOption<AutomaticCreation> AUTOMATIC_CREATION = ConfigOption.key("tag.automatic-creation")
            .enumType(AutomaticCreation.class)
            .defaultValue(AutomaticCreation.NONE)
            .perRun()
            .withDescription("process-time: the first commit after a period (plus tag.creation-delay) has ended "
                    + "tags the last snapshot committed in it, named for the period (2026-12-01, or 2026-12-01-10 "
                    + "hourly), once; none: no automatic tags.");

    public static final ConfigOption<Period> CREATION_PERIOD = ConfigOption.key("tag.creation-period")
            .enumType(Period.class)
            .defaultValue(Period.DAILY)
            .perRun()
            .withDescription("The period of automatic tags, in UTC.");

    public static final ConfigOption<Duration> CREATION_DELAY = ConfigOption.key("tag.creation-delay")
            .durationType()
            .defaultValue(Duration.ZERO)
            .atLeast(Duration.ZERO)
            .perRun()
            .withDescription("How long after a period ends its tag is created, for late commits of the period.");

    public static final ConfigOption<Integer> NUM_RETAINED_MAX = ConfigOption.key("tag.num-retained-max")
            .intType()
            .noDefault()
            .atLeast(1)
            .perRun()
            .withDescription("Automatic tags kept at most; the oldest go when a new one is created. Unset: all.");
}
