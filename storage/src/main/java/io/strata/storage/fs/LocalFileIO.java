package io.strata.storage.fs;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A warehouse on the local file system, through java.nio. */
final class LocalFileIO extends FileIO {

    LocalFileIO(Configuration conf) {
        super(conf);
    }

    static java.nio.file.Path local(Path path) {
        return new File(path.toUri().getPath()).toPath();
    }

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(local(path));
    }

    @Override
    public InputStream open(Path path) throws IOException {
        try {
            return Files.newInputStream(local(path));
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(path.toString());
        }
    }

    @Override
    public OutputStream create(Path path) throws IOException {
        return create(path, false);
    }

    /** A new file, forced to disk at close, or from close on in the background ({@link BackgroundSync}). */
    private static OutputStream create(Path path, boolean backgroundSync) throws IOException {
        java.nio.file.Path p = local(path);
        Files.createDirectories(p.getParent());
        FileChannel channel;
        try {
            // CREATE_NEW: the check for an existing file and the creation are one step, so two
            // writers racing for one name can never both write it.
            channel = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(path.toString());
        }
        return new SyncingOutputStream(p, channel, backgroundSync);
    }

    @Override
    public long length(Path path) throws IOException {
        try {
            return Files.size(local(path));
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(path.toString());
        }
    }

    @Override
    public boolean delete(Path path) throws IOException {
        return Files.deleteIfExists(local(path));
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        Files.createDirectories(local(path));
    }

    @Override
    public List<FileEntry> list(Path dir) throws IOException {
        List<FileEntry> out = new ArrayList<>();
        java.nio.file.Path d = local(dir);
        if (!Files.isDirectory(d)) {
            return out;
        }
        try (DirectoryStream<java.nio.file.Path> ds = Files.newDirectoryStream(d)) {
            for (java.nio.file.Path p : ds) {
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException gone) {
                    continue; // deleted since the listing (a committer's temporary file): not an entry any more
                }
                if (a.isSymbolicLink()) {
                    out.add(FileEntry.symbolicLink(
                            new Path(dir, p.getFileName().toString()),
                            a.lastModifiedTime().toMillis()));
                    continue;
                }
                out.add(new FileEntry(
                        new Path(dir, p.getFileName().toString()),
                        a.size(),
                        a.isDirectory(),
                        a.lastModifiedTime().toMillis()));
            }
        }
        return out;
    }

    @Override
    protected void replace(Path src, Path dst) throws IOException {
        Files.move(local(src), local(dst), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public InputFile inputFile(Path path, long knownLength) {
        return new LocalChannelInputFile(local(path), path.toString(), knownLength);
    }

    @Override
    public OutputFile outputFile(Path path) {
        return outputFile(path, false); // durable once closed: manifests and lists a snapshot names directly
    }

    /**
     * Data files are forced to disk in the background from their close on ({@link
     * BackgroundSync}); {@link #makeDurable} waits for that, or forces the file itself when this
     * process did not write it, before a snapshot names it.
     */
    @Override
    public OutputFile dataOutputFile(Path path) {
        return outputFile(path, true);
    }

    @Override
    public void makeDurable(Collection<Path> files) throws IOException {
        for (Path f : files) {
            BackgroundSync.awaitDurable(local(f), f.toString());
        }
    }

    private OutputFile outputFile(Path path, boolean backgroundSync) {
        return new NoOverwriteOutputFile(path) {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                OutputStream out = LocalFileIO.create(path, backgroundSync);
                return new DelegatingPositionOutputStream(new BufferedOutputStream(out, 1 << 16)) {
                    private long pos;

                    @Override
                    public long getPos() {
                        return pos;
                    }

                    @Override
                    public void write(int b) throws IOException {
                        super.write(b);
                        pos++;
                    }

                    @Override
                    public void write(byte[] b) throws IOException {
                        write(b, 0, b.length);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        super.write(b, off, len);
                        pos += len;
                    }
                };
            }
        };
    }

    /**
     * Forces content to disk on close (or, with {@code background}, hands the force to {@link
     * BackgroundSync}, which the commit naming the file waits for), so a published snapshot never
     * names a file an OS crash could lose.
     */
    private static final class SyncingOutputStream extends OutputStream {
        private final java.nio.file.Path path;
        private final FileChannel out;
        private final boolean background;
        private boolean closed;
        /** Background only: bytes written since the last early force was asked for. */
        private long unforced;

        private CompletableFuture<Void> earlyForce = BackgroundSync.NO_EARLY_FORCE;

        SyncingOutputStream(java.nio.file.Path path, FileChannel out, boolean background) {
            this.path = path;
            this.out = out;
            this.background = background;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            while (buf.hasRemaining()) {
                out.write(buf);
            }
            written(len);
        }

        /** Background files: every {@link BackgroundSync#EARLY_FORCE_BYTES}, an early force. */
        private void written(long n) {
            if (background && (unforced += n) >= BackgroundSync.EARLY_FORCE_BYTES) {
                unforced = 0;
                earlyForce = BackgroundSync.forceEarly(out, earlyForce);
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (background) {
                BackgroundSync.forceAndClose(path, out, earlyForce);
                return;
            }
            try {
                out.force(false);
            } finally {
                out.close();
            }
        }
    }
}
