package io.strata.storage.fs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.Path;

/**
 * The checksum a JSON metadata file (snapshot, manifest list) carries of its own content
 * (docs/FORMAT.md, "Content checksums"): member {@code "checksum"} of the top-level object, 8
 * lowercase hex digits of the CRC32C of the object's canonical form, which is the object without
 * that member, written compactly (no whitespace) with its members in the order the file has them,
 * as Jackson writes a parsed tree. The canonical form is of the parsed content, not of the file's
 * bytes, so whitespace and escaping do not matter; every value does.
 */
public final class JsonChecksum {
    public static final String FIELD = "checksum";

    private static final ObjectWriter COMPACT = Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private JsonChecksum() {}

    /** {@code root} with its checksum member set last (replacing one it had), as the bytes to write. */
    public static byte[] seal(ObjectNode root) throws JsonProcessingException {
        ObjectNode sealed = root.deepCopy();
        sealed.remove(FIELD);
        sealed.put(FIELD, of(sealed));
        return Json.MAPPER.writeValueAsBytes(sealed);
    }

    /**
     * Checks the checksum of {@code root}, read from {@code file}. A file without one (written
     * before checksums existed) passes; so does nothing else that differs.
     *
     * @throws CorruptFileException naming the file and both checksums when they differ
     */
    public static void verify(Path file, JsonNode root) {
        if (root == null || !root.isObject() || !root.has(FIELD)) {
            return;
        }
        ObjectNode content = ((ObjectNode) root).deepCopy();
        JsonNode recorded = content.remove(FIELD);
        String actual;
        try {
            actual = of(content);
        } catch (JsonProcessingException e) {
            throw new CorruptFileException(file, "cannot compute the content checksum: " + e.getMessage(), e);
        }
        if (!recorded.isTextual() || !recorded.asText().equals(actual)) {
            throw new CorruptFileException(
                    file,
                    "content checksum mismatch: the file records " + recorded + ", its content hashes to \"" + actual
                            + "\" (the file was damaged or edited), and is not read");
        }
    }

    /** The checksum of {@code content}, an object without a checksum member. */
    private static String of(ObjectNode content) throws JsonProcessingException {
        CRC32C crc = new CRC32C();
        crc.update(COMPACT.writeValueAsBytes(content));
        return String.format("%08x", crc.getValue());
    }
}
