package io.strata.storage.snapshot;

import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.options.TableOptions;
import io.strata.storage.options.TagOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Automatic tags ({@code tag.automatic-creation=process-time}): after each commit, when the last
 * complete period (day or hour, UTC, plus {@code tag.creation-delay}) has no tag yet and the table
 * had a snapshot before its end, the last snapshot committed before its end is tagged with the
 * period's name. A tag is published at most once, so two processes committing at the same time
 * create one tag. Beyond {@code tag.num-retained-max}, the oldest automatic tags are deleted.
 * {@link #createDue} does the same without a commit, for tables no commit reaches after a period
 * ends.
 */
public final class AutoTags {
    private static final Logger LOG = LoggerFactory.getLogger(AutoTags.class);
    private static final DateTimeFormatter DAY =
            DateTimeFormatter.ofPattern("uuuu-MM-dd").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("uuuu-MM-dd-HH").withZone(ZoneOffset.UTC);
    private static final Pattern AUTO_NAME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}(-\\d{2})?");
    /** Snapshots read back at most to find the last one of a period. */
    private static final int MAX_SNAPSHOTS_BACK = 100;

    private final TagManager tags;
    private final SnapshotManager snapshots;
    private final AtomicPublisher publisher;
    private final Clock clock;
    private final TagOptions.AutomaticCreation mode;
    private final TagOptions.Period period;
    private final Duration delay;
    private final Integer retainMax;

    public AutoTags(
            TagManager tags, SnapshotManager snapshots, AtomicPublisher publisher, TableOptions o, Clock clock) {
        this.tags = tags;
        this.snapshots = snapshots;
        this.publisher = publisher;
        this.clock = clock;
        this.mode = o.get(TagOptions.AUTOMATIC_CREATION);
        this.period = o.get(TagOptions.CREATION_PERIOD);
        this.delay = o.get(TagOptions.CREATION_DELAY);
        this.retainMax = o.get(TagOptions.NUM_RETAINED_MAX);
    }

    /**
     * What one pass of automatic tagging did.
     *
     * @param created the tag it created, if one was due and not there yet
     * @param deleted the automatic tags it deleted beyond {@code tag.num-retained-max}, oldest first
     * @param reason why no tag was created (empty when one was): the period's tag exists, nothing was
     *     committed before the period ended, the snapshot is being expired, or automatic creation is off
     */
    public record Result(Optional<Tag> created, List<String> deleted, String reason) {
        public Result {
            deleted = List.copyOf(deleted);
        }

        /** No tag created, for {@code reason}; none deleted. */
        public static Result none(String reason) {
            return new Result(Optional.empty(), List.of(), reason);
        }
    }

    /** Whether the table creates tags automatically ({@code tag.automatic-creation} is not none). */
    public boolean enabled() {
        return mode != TagOptions.AutomaticCreation.NONE;
    }

    /** Called after snapshot {@code latest} was published; creates the due tag, if any. */
    public Optional<Tag> afterCommit(Snapshot latest) {
        Result r = tagDue(latest);
        if (r.created().isPresent()) {
            deleteBeyondRetained();
        }
        return r.created();
    }

    /**
     * Creates the tag the options call for now, as a commit of {@code latest} would, for a table no
     * commit reaches after a period ends (an idle table, or a scheduler's run); then deletes the
     * oldest automatic tags beyond {@code tag.num-retained-max}, whether it created one or not. Only
     * the last complete period is tagged, as after a commit: periods that ended earlier without a
     * tag get none.
     */
    public Result createDue(Snapshot latest) {
        Result r = tagDue(latest);
        if (mode == TagOptions.AutomaticCreation.NONE) {
            return r;
        }
        return new Result(r.created(), deleteBeyondRetained(), r.reason());
    }

    private Result tagDue(Snapshot latest) {
        if (mode == TagOptions.AutomaticCreation.NONE) {
            return Result.none(TagOptions.AUTOMATIC_CREATION.key() + " is none");
        }
        Instant now = clock.instant().minus(delay);
        ChronoUnit unit = period == TagOptions.Period.DAILY ? ChronoUnit.DAYS : ChronoUnit.HOURS;
        Instant end = now.truncatedTo(unit); // the end of the last complete period
        Instant start = end.minus(1, unit);
        String name = (period == TagOptions.Period.DAILY ? DAY : HOUR).format(start);
        Optional<Tag> existing = tags.get(name);
        if (existing.isPresent()) {
            return Result.none("tag '" + name + "' exists (on snapshot "
                    + existing.get().snapshot().id() + ")");
        }
        Optional<Snapshot> last = lastBefore(latest, end.toEpochMilli());
        if (last.isEmpty()) {
            // or only more than MAX_SNAPSHOTS_BACK snapshots ago
            return Result.none(
                    "no snapshot committed before " + end + " (the end of the period of tag '" + name + "') to tag");
        }
        Tag tag;
        try {
            tag = tags.create(publisher, name, last.get(), clock.millis(), Optional.empty());
        } catch (IllegalArgumentException exists) {
            return Result.none("tag '" + name + "' was created by another committer at the same time");
        }
        if (snapshots.expiringRangeCovering(last.get().id()).isPresent()) {
            tags.delete(name); // an expiration is removing that snapshot: the next commit tries again
            return Result.none("snapshot " + last.get().id() + " of tag '" + name + "' is being expired");
        }
        LOG.info("automatic tag '{}' on snapshot {}", name, last.get().id());
        return new Result(Optional.of(tag), List.of(), "");
    }

    /** Deletes the oldest automatic tags beyond {@code tag.num-retained-max}; returns their names. */
    private List<String> deleteBeyondRetained() {
        if (retainMax == null) {
            return List.of();
        }
        List<Tag> auto = new ArrayList<>();
        for (Tag t : tags.list()) {
            if (AUTO_NAME.matcher(t.name()).matches()) {
                auto.add(t);
            }
        }
        auto.sort((a, b) -> a.name().compareTo(b.name()));
        List<String> deleted = new ArrayList<>();
        for (int i = 0; i < auto.size() - retainMax; i++) {
            if (tags.delete(auto.get(i).name())) {
                deleted.add(auto.get(i).name());
                LOG.info(
                        "automatic tag '{}' deleted (tag.num-retained-max {})",
                        auto.get(i).name(),
                        retainMax);
            }
        }
        return deleted;
    }

    private Optional<Snapshot> lastBefore(Snapshot latest, long endMillis) {
        Snapshot s = latest;
        for (int i = 0; i < MAX_SNAPSHOTS_BACK; i++) {
            if (s.timeMillis() < endMillis) {
                return Optional.of(s);
            }
            if (s.id() <= 1 || !snapshots.exists(s.id() - 1)) {
                return Optional.empty();
            }
            s = snapshots.snapshot(s.id() - 1);
        }
        return Optional.empty();
    }
}
