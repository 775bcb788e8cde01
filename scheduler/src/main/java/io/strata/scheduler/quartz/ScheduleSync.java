package io.strata.scheduler.quartz;

import io.strata.scheduler.config.SchedulerConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.quartz.JobKey;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the job store hold exactly the schedules of the given tables: new ones are added, a stored
 * trigger whose definition is unchanged is kept (with its next fire time and its misfires, so a
 * restart catches up as its misfire instruction says), a changed one is replaced, and the jobs of
 * tables or operations no longer configured are removed.
 *
 * <p>In a cluster every node syncs the shared store: a job or trigger another node added between
 * this node's check and its insert is taken as added, and replaced if its definition differs.
 * Nodes with different configs undo each other's schedules at every discovery round: every node of
 * a cluster must have the same tables and schedules.
 */
public final class ScheduleSync {
    private static final Logger LOG = LoggerFactory.getLogger(ScheduleSync.class);

    private ScheduleSync() {}

    /** Returns the schedules now in force. */
    public static List<Schedule> sync(Scheduler s, SchedulerConfig config, Collection<String> tables)
            throws SchedulerException {
        List<Schedule> wanted = new ArrayList<>();
        for (String t : tables) {
            wanted.addAll(Schedule.of(t, config.settingsFor(t)));
        }
        Set<JobKey> keep = new HashSet<>();
        for (Schedule w : wanted) {
            keep.add(w.jobKey());
            Trigger stored = s.getTrigger(w.triggerKey());
            if (stored != null && w.definition().equals(stored.getDescription())) {
                continue;
            }
            if (stored != null) {
                s.rescheduleJob(w.triggerKey(), w.trigger());
                LOG.info("{} {}: schedule changed to {}", w.table(), w.kind().key(), w.definition());
                continue;
            }
            try {
                if (!s.checkExists(w.jobKey())) {
                    s.addJob(w.job(), false);
                }
                s.scheduleJob(w.trigger());
                LOG.info("{} {}: scheduled, {}", w.table(), w.kind().key(), w.definition());
            } catch (ObjectAlreadyExistsException e) {
                // another node of the cluster stored it meanwhile
                Trigger theirs = s.getTrigger(w.triggerKey());
                if (theirs == null) {
                    s.scheduleJob(w.trigger());
                } else if (!w.definition().equals(theirs.getDescription())) {
                    s.rescheduleJob(w.triggerKey(), w.trigger());
                }
                LOG.info(
                        "{} {}: scheduled by another node, {}",
                        w.table(),
                        w.kind().key(),
                        w.definition());
            }
        }
        for (String group : s.getJobGroupNames()) {
            for (JobKey k : s.getJobKeys(GroupMatcher.jobGroupEquals(group))) {
                if (!keep.contains(k)) {
                    s.deleteJob(k);
                    LOG.info("{} {}: no longer configured, unscheduled", k.getGroup(), k.getName());
                }
            }
        }
        return wanted;
    }
}
