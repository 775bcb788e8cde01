package io.strata.storage.fs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A local warehouse's FileIO that fails the Nth call (and optionally the k after it) of one kind
 * of operation and lets every other call through, like Iceberg's {@code failCommits(n)}. Calls
 * are counted per {@link Op} from the last {@link #failNth} or {@link #resetCounts}, so a test
 * counts the calls of a clean run and then fails each of them in turn. Thread-safe.
 */
public final class ScheduledFailureFileIO extends DelegatingFileIO {

    /** The kinds of operation a schedule can fail. */
    public enum Op {
        /** A new file: create, writeNew, and the create of outputFile and dataOutputFile. */
        CREATE,
        /** Moving a file over another (publishing a whole file, a snapshot, a hint). */
        PUBLISH,
        DELETE,
        /** Opening a file to read: open, readFully and the streams of inputFile. */
        READ,
        LIST,
        EXISTS,
        LENGTH,
        /** makeDurable. */
        DURABLE
    }

    private final Map<Op, AtomicInteger> calls = new EnumMap<>(Op.class);
    private volatile Op failing;
    private volatile int first;
    private volatile int last;
    private final AtomicInteger injected = new AtomicInteger();

    public ScheduledFailureFileIO(String warehouse) {
        super(warehouse);
        for (Op op : Op.values()) {
            calls.put(op, new AtomicInteger());
        }
    }

    /** From now on, calls {@code n} to {@code n + more} (1-based) of {@code op} fail; counts restart. */
    public ScheduledFailureFileIO failNth(Op op, int n, int more) {
        resetCounts();
        injected.set(0);
        this.first = n;
        this.last = n + more;
        this.failing = op;
        return this;
    }

    /** No failures from now on (counts go on). */
    public void heal() {
        failing = null;
    }

    public void resetCounts() {
        calls.values().forEach(c -> c.set(0));
    }

    /** Calls of {@code op} since the counts were last reset. */
    public int calls(Op op) {
        return calls.get(op).get();
    }

    /** Failures injected since the last {@link #failNth}. */
    public int injected() {
        return injected.get();
    }

    private void call(Op op, Object what) throws IOException {
        int n = calls.get(op).incrementAndGet();
        if (op == failing && n >= first && n <= last) {
            injected.incrementAndGet();
            throw new IOException("injected: " + op + " call #" + n + " (" + what + ") fails");
        }
    }

    @Override
    public boolean exists(Path path) throws IOException {
        call(Op.EXISTS, path);
        return local.exists(path);
    }

    @Override
    public InputStream open(Path path) throws IOException {
        call(Op.READ, path);
        return local.open(path);
    }

    @Override
    public OutputStream create(Path path) throws IOException {
        call(Op.CREATE, path);
        return local.create(path);
    }

    @Override
    public long length(Path path) throws IOException {
        call(Op.LENGTH, path);
        return local.length(path);
    }

    @Override
    public boolean delete(Path path) throws IOException {
        call(Op.DELETE, path);
        return local.delete(path);
    }

    @Override
    public List<FileEntry> list(Path dir) throws IOException {
        call(Op.LIST, dir);
        return local.list(dir);
    }

    @Override
    protected void replace(Path src, Path dst) throws IOException {
        call(Op.PUBLISH, dst);
        local.replace(src, dst);
    }

    @Override
    public void makeDurable(Collection<Path> files) throws IOException {
        call(Op.DURABLE, files.size() + " files");
        local.makeDurable(files);
    }

    @Override
    public InputFile inputFile(Path path, long knownLength) {
        InputFile in = local.inputFile(path, knownLength);
        return new InputFile() {
            @Override
            public long getLength() throws IOException {
                return in.getLength();
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                call(Op.READ, path);
                return in.newStream();
            }

            @Override
            public String toString() {
                return in.toString();
            }
        };
    }

    @Override
    public OutputFile outputFile(Path path) {
        return failingCreate(path, local.outputFile(path));
    }

    @Override
    public OutputFile dataOutputFile(Path path) {
        return failingCreate(path, local.dataOutputFile(path));
    }

    private OutputFile failingCreate(Path path, OutputFile out) {
        return new NoOverwriteOutputFile(path) {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                call(Op.CREATE, path);
                return out.create(blockSizeHint);
            }

            @Override
            public String getPath() {
                return out.getPath();
            }
        };
    }
}
