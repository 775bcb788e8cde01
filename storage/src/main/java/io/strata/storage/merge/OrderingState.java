package io.strata.storage.merge;

import io.strata.storage.data.ValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The hidden ordering state of a pre-merged row ({@link io.strata.storage.data.KeyValue#orderings()},
 * the data file's {@code _ORDERINGS} column), in the layout of docs/FORMAT.md, "Ordering state":
 *
 * <pre>
 * byte    layout (1; 2 when member entries follow; 3 when element entries follow those)
 * byte    has row sequence (0/1), then varint row sequence when 1
 * varint  field entries; per entry: ordering value (ValueCodec value), varint sequence,
 *         varint n, n x varint field id   -- the fields whose value that (ordering, sequence) produced
 * varint  group entries; per entry: varint group id (field id of its first sequence field), varint sequence
 * layout 2 only:
 * varint  member entries; per entry: varint field id, varint sequence, varint n, n x ValueCodec value
 *         -- a sequence-group member with an order-sensitive function whose value came from
 *         another row than the group's: that row's sequence tuple and sequence number
 * layout 3 only (the member count is then always present, possibly 0):
 * varint  element entries; per entry: varint field id, varint k (ordering arity), varint runs;
 *         per run: k x ValueCodec value (the ordering), varint sequence, varint units
 *         -- a listagg, collect or merge_map value, piece by piece in value order ({@link OrderedElements})
 * </pre>
 *
 * A varint is an unsigned LEB128 number (7 bits a byte, low bits first, high bit set on every byte
 * but the last); sequence numbers and field ids are never negative.
 *
 * What a field or group without an entry orders as is the engine's rule (partial-update: the
 * row's own ordering; aggregation: nothing folded yet). Fields sharing an (ordering, sequence)
 * share one entry, so a row pre-merged from a few streams stays a few entries however wide it is.
 */
final class OrderingState {
    static final byte LAYOUT = 1;
    /** Layout 1 followed by member entries; written only when a row has one. */
    static final byte LAYOUT_MEMBERS = 2;
    /** Layout 2 followed by element entries; written only when a row has one. */
    static final byte LAYOUT_ELEMENTS = 3;

    /**
     * One piece of a listagg, collect or merge_map value: the ordering of the record it came from
     * (the sequence-field value, or a sequence group's tuple), that record's sequence number, and
     * how many units of the value it produced (code points of a listagg piece, array elements,
     * map entries).
     */
    static final class ElementRun {
        final Object[] ordering;
        final long seq;
        final int units;

        ElementRun(Object[] ordering, long seq, int units) {
            this.ordering = ordering;
            this.seq = seq;
            this.units = units;
        }

        @Override
        public String toString() {
            return java.util.Arrays.toString(ordering) + "/" + seq + "x" + units;
        }
    }

    /** Receives a decoded state, entry by entry ({@link #read}). */
    interface Sink {
        void rowSequence(long seq);

        void field(int fieldId, Object ordering, long seq);

        void group(int groupId, long seq);

        /** A group member's value came from the row of this sequence tuple and sequence number. */
        default void member(int fieldId, Object[] tuple, long seq) {}

        /** The pieces of a listagg, collect or merge_map field's value, in value order. */
        default void elements(int fieldId, List<ElementRun> runs) {}
    }

    private OrderingState() {}

    static void writeVarint(DataOutputStream out, long v) throws IOException {
        if (v < 0) {
            throw new IllegalArgumentException("negative value in ordering state: " + v);
        }
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    static long readVarint(DataInputStream in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("varint longer than 64 bits");
    }

    /** Decodes {@code bytes} into {@code sink}: the row sequence if present, then every field and group entry. */
    static void read(byte[] bytes, Sink sink) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte layout = in.readByte();
            if (layout != LAYOUT && layout != LAYOUT_MEMBERS && layout != LAYOUT_ELEMENTS) {
                throw new IllegalStateException("ordering state of layout " + layout + " (known: " + LAYOUT + ", "
                        + LAYOUT_MEMBERS + ", " + LAYOUT_ELEMENTS + ")");
            }
            if (in.readBoolean()) {
                sink.rowSequence(readVarint(in));
            }
            int n = (int) readVarint(in);
            for (int i = 0; i < n; i++) {
                Object ordering = ValueCodec.readValue(in);
                long seq = readVarint(in);
                int ids = (int) readVarint(in);
                for (int j = 0; j < ids; j++) {
                    sink.field((int) readVarint(in), ordering, seq);
                }
            }
            int g = (int) readVarint(in);
            for (int i = 0; i < g; i++) {
                int id = (int) readVarint(in);
                sink.group(id, readVarint(in));
            }
            if (layout >= LAYOUT_MEMBERS) {
                int m = (int) readVarint(in);
                for (int i = 0; i < m; i++) {
                    int id = (int) readVarint(in);
                    long seq = readVarint(in);
                    Object[] tuple = new Object[(int) readVarint(in)];
                    for (int j = 0; j < tuple.length; j++) {
                        tuple[j] = ValueCodec.readValue(in);
                    }
                    sink.member(id, tuple, seq);
                }
            }
            if (layout == LAYOUT_ELEMENTS) {
                readElements(in, sink);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt ordering state", e);
        }
    }

    private static void readElements(DataInputStream in, Sink sink) throws IOException {
        int fields = (int) readVarint(in);
        for (int i = 0; i < fields; i++) {
            int id = (int) readVarint(in);
            int arity = (int) readVarint(in);
            int n = (int) readVarint(in);
            List<ElementRun> runs = new ArrayList<>(n);
            for (int r = 0; r < n; r++) {
                Object[] ordering = new Object[arity];
                for (int j = 0; j < arity; j++) {
                    ordering[j] = ValueCodec.readValue(in);
                }
                long seq = readVarint(in);
                runs.add(new ElementRun(ordering, seq, (int) readVarint(in)));
            }
            sink.elements(id, runs);
        }
    }

    /** Builds one row's state; {@link #toBytes()} is null when nothing was added. Lists are made on first use. */
    static final class Builder {
        private Long rowSequence;
        private List<Object> orderings;
        private List<Long> sequences;
        private List<List<Integer>> fieldIds;
        private List<Integer> groups;
        private List<Long> groupSequences;
        private List<Integer> members;
        private List<Object[]> memberTuples;
        private List<Long> memberSequences;
        private List<Integer> elementFields;
        private List<List<ElementRun>> elementRuns;
        private final java.util.Comparator<Object> orderingEquality;
        private final boolean always;

        /**
         * @param orderingEquality compares ordering values (0 = same entry)
         * @param always whether {@link #toBytes()} returns a state even when it is empty (aggregation:
         *               an empty state means "nothing folded", which differs from no state at all)
         */
        Builder(java.util.Comparator<Object> orderingEquality, boolean always) {
            this.orderingEquality = orderingEquality;
            this.always = always;
        }

        void rowSequence(long seq) {
            rowSequence = seq;
        }

        void field(int fieldId, Object ordering, long seq) {
            if (sequences == null) {
                orderings = new ArrayList<>(4);
                sequences = new ArrayList<>(4);
                fieldIds = new ArrayList<>(4);
            }
            for (int i = 0; i < sequences.size(); i++) {
                if (sequences.get(i) == seq && orderingEquality.compare(orderings.get(i), ordering) == 0) {
                    fieldIds.get(i).add(fieldId);
                    return;
                }
            }
            orderings.add(ordering);
            sequences.add(seq);
            List<Integer> ids = new ArrayList<>(4);
            ids.add(fieldId);
            fieldIds.add(ids);
        }

        void group(int groupId, long seq) {
            if (groups == null) {
                groups = new ArrayList<>(4);
                groupSequences = new ArrayList<>(4);
            }
            groups.add(groupId);
            groupSequences.add(seq);
        }

        void member(int fieldId, Object[] tuple, long seq) {
            if (members == null) {
                members = new ArrayList<>(4);
                memberTuples = new ArrayList<>(4);
                memberSequences = new ArrayList<>(4);
            }
            members.add(fieldId);
            memberTuples.add(tuple);
            memberSequences.add(seq);
        }

        /** The pieces of field {@code fieldId}'s value, in value order; all of one ordering arity. */
        void elements(int fieldId, List<ElementRun> runs) {
            if (elementFields == null) {
                elementFields = new ArrayList<>(2);
                elementRuns = new ArrayList<>(2);
            }
            elementFields.add(fieldId);
            elementRuns.add(runs);
        }

        byte[] toBytes() {
            if (!always
                    && rowSequence == null
                    && sequences == null
                    && groups == null
                    && members == null
                    && elementFields == null) {
                return null;
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                byte layout = elementFields != null ? LAYOUT_ELEMENTS : members != null ? LAYOUT_MEMBERS : LAYOUT;
                out.writeByte(layout);
                out.writeBoolean(rowSequence != null);
                if (rowSequence != null) {
                    writeVarint(out, rowSequence);
                }
                int n = sequences == null ? 0 : sequences.size();
                writeVarint(out, n);
                for (int i = 0; i < n; i++) {
                    ValueCodec.writeValue(out, orderings.get(i));
                    writeVarint(out, sequences.get(i));
                    List<Integer> ids = fieldIds.get(i);
                    writeVarint(out, ids.size());
                    for (int id : ids) {
                        writeVarint(out, id);
                    }
                }
                int g = groups == null ? 0 : groups.size();
                writeVarint(out, g);
                for (int i = 0; i < g; i++) {
                    writeVarint(out, groups.get(i));
                    writeVarint(out, groupSequences.get(i));
                }
                if (layout >= LAYOUT_MEMBERS) {
                    int m = members == null ? 0 : members.size();
                    writeVarint(out, m);
                    for (int i = 0; i < m; i++) {
                        writeVarint(out, members.get(i));
                        writeVarint(out, memberSequences.get(i));
                        Object[] tuple = memberTuples.get(i);
                        writeVarint(out, tuple.length);
                        for (Object v : tuple) {
                            ValueCodec.writeValue(out, v);
                        }
                    }
                }
                if (layout == LAYOUT_ELEMENTS) {
                    writeElements(out);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        private void writeElements(DataOutputStream out) throws IOException {
            writeVarint(out, elementFields.size());
            for (int i = 0; i < elementFields.size(); i++) {
                List<ElementRun> runs = elementRuns.get(i);
                writeVarint(out, elementFields.get(i));
                writeVarint(out, runs.isEmpty() ? 0 : runs.get(0).ordering.length);
                writeVarint(out, runs.size());
                for (ElementRun run : runs) {
                    for (Object v : run.ordering) {
                        ValueCodec.writeValue(out, v);
                    }
                    writeVarint(out, run.seq);
                    writeVarint(out, run.units);
                }
            }
        }
    }
}
