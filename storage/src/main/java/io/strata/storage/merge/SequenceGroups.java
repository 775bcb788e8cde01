package io.strata.storage.merge;

import io.strata.storage.options.MergeOptions.MergeEngine;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sequence groups of a partial-update table, from its {@code fields.<s1>[,<s2>...].sequence-group
 * = <f1>,<f2>...} options: the sequence fields s order the group, whose members are the listed
 * fields and the sequence fields themselves (they change together). Validated once per table;
 * every error names the table and the option.
 */
final class SequenceGroups {
    private static final String PREFIX = "fields.";
    private static final String SUFFIX = ".sequence-group";

    /** One group: its id (the field id of its first sequence field), sequence field and member positions. */
    static final class Group {
        final int id;
        final int[] sequenceFields;
        /** Every field the group writes: the listed fields and the sequence fields. */
        final int[] members;

        final String option;

        Group(int id, int[] sequenceFields, int[] members, String option) {
            this.id = id;
            this.sequenceFields = sequenceFields;
            this.members = members;
            this.option = option;
        }
    }

    private final List<Group> groups;
    /** Per field position: the index of its group in {@link #groups()}, or -1. */
    private final int[] groupOf;

    private SequenceGroups(List<Group> groups, int[] groupOf) {
        this.groups = groups;
        this.groupOf = groupOf;
    }

    static boolean isGroupOption(String key) {
        return key.startsWith(PREFIX) && key.endsWith(SUFFIX) && key.length() > PREFIX.length() + SUFFIX.length();
    }

    /**
     * Parses and checks the groups of {@code schema}: only with partial-update; every named field
     * exists and is not a primary key field; a field belongs to at most one group (as member or
     * sequence field); a group does not list its own sequence field; {@code sequence.field}, which
     * orders the fields outside groups, is in none.
     */
    static SequenceGroups of(String owner, TableSchema schema, MergeEngine engine, int sequenceFieldIndex) {
        List<DataField> fields = schema.fields();
        int[] groupOf = new int[fields.size()];
        java.util.Arrays.fill(groupOf, -1);
        boolean[] isKey = new boolean[fields.size()];
        for (int i : schema.primaryKeyIndexes()) {
            isKey[i] = true;
        }
        List<Group> groups = new ArrayList<>();
        Map<String, String> sorted = new java.util.TreeMap<>(schema.options());
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            String key = e.getKey();
            if (!isGroupOption(key)) {
                continue;
            }
            if (engine != MergeEngine.PARTIAL_UPDATE) {
                throw new IllegalArgumentException(owner + ": option '" + key + "' needs merge-engine=partial-update");
            }
            String sequencePart = key.substring(PREFIX.length(), key.length() - SUFFIX.length());
            int[] sequenceFields = positions(owner, key, schema, sequencePart, "sequence field");
            int[] listed = positions(owner, key, schema, e.getValue(), "field");
            if (listed.length == 0) {
                throw new IllegalArgumentException(owner + ": option '" + key + "' lists no field");
            }
            LinkedHashMap<Integer, Boolean> members = new LinkedHashMap<>();
            for (int s : sequenceFields) {
                members.put(s, Boolean.TRUE);
            }
            for (int f : listed) {
                if (members.containsKey(f)) {
                    throw new IllegalArgumentException(owner + ": option '" + key + "' lists field '"
                            + fields.get(f).name() + "', which is "
                            + (members.get(f) ? "a sequence field of the group itself" : "listed twice"));
                }
                members.put(f, Boolean.FALSE);
            }
            int gi = groups.size();
            for (int f : members.keySet()) {
                String name = fields.get(f).name();
                if (isKey[f]) {
                    throw new IllegalArgumentException(
                            owner + ": option '" + key + "' names primary key field '" + name + "'");
                }
                if (f == sequenceFieldIndex) {
                    throw new IllegalArgumentException(owner + ": option '" + key + "' names '" + name
                            + "', the table's sequence.field (it orders the fields outside sequence groups)");
                }
                if (groupOf[f] >= 0) {
                    throw new IllegalArgumentException(owner + ": field '" + name + "' is in two sequence groups: '"
                            + groups.get(groupOf[f]).option + "' and '" + key + "'");
                }
                groupOf[f] = gi;
            }
            int[] m = members.keySet().stream().mapToInt(Integer::intValue).toArray();
            groups.add(new Group(fields.get(sequenceFields[0]).id(), sequenceFields, m, key));
        }
        return new SequenceGroups(List.copyOf(groups), groupOf);
    }

    private static int[] positions(String owner, String key, TableSchema schema, String list, String what) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            int i = schema.fieldIndex(name);
            if (i < 0) {
                throw new IllegalArgumentException(
                        owner + ": option '" + key + "' names unknown " + what + " '" + name + "'");
            }
            if (out.contains(i)) {
                throw new IllegalArgumentException(
                        owner + ": option '" + key + "' names " + what + " '" + name + "' twice");
            }
            out.add(i);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    List<Group> groups() {
        return groups;
    }

    boolean isEmpty() {
        return groups.isEmpty();
    }

    /** The index of the group of the field at {@code position}, or -1. */
    int groupOf(int position) {
        return groupOf[position];
    }

    /** Whether the field at {@code position} is a sequence field of its group. */
    boolean isGroupSequenceField(int position) {
        int g = groupOf[position];
        if (g < 0) {
            return false;
        }
        for (int s : groups.get(g).sequenceFields) {
            if (s == position) {
                return true;
            }
        }
        return false;
    }
}
