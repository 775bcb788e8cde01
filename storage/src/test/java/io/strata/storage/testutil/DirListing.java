package io.strata.storage.testutil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A point-in-time description of every regular file under a local directory: relative path to
 * size, modification time (ns), file key (inode) and CRC32 of the content. Two listings are equal
 * only if no file was added, deleted, replaced or rewritten in between.
 */
public final class DirListing {
    private DirListing() {}

    public static Map<String, String> of(Path dir) {
        Map<String, String> out = new TreeMap<>();
        if (!Files.exists(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (!a.isRegularFile()) {
                    continue;
                }
                CRC32 crc = new CRC32();
                crc.update(Files.readAllBytes(p));
                out.put(
                        dir.relativize(p).toString(),
                        "size=" + a.size()
                                + " mtime=" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS)
                                + " key=" + a.fileKey() + " crc=" + Long.toHexString(crc.getValue()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
