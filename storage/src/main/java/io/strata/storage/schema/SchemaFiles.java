package io.strata.storage.schema;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.storage.util.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a user's schema file (JSON, or YAML by extension {@code .yaml}/{@code .yml}):
 *
 * <pre>
 * fields:
 *   - {name: id, type: BIGINT, nullable: false}
 *   - {name: name, type: STRING}
 * primaryKey: [id]
 * partitionKeys: []
 * options: {bucket: "4"}
 * </pre>
 *
 * Every error names the file and, where it can, the field.
 */
public final class SchemaFiles {
    private SchemaFiles() {}

    /** The file's JSON/YAML shape. */
    static final class FileSchema {
        @JsonProperty("fields")
        List<FileField> fields;

        @JsonProperty("primaryKey")
        List<String> primaryKey = List.of();

        @JsonProperty("partitionKeys")
        List<String> partitionKeys = List.of();

        @JsonProperty("options")
        Map<String, Object> options = new LinkedHashMap<>();
    }

    /** One field of the file. */
    static final class FileField {
        @JsonProperty("name")
        String name;

        @JsonProperty("type")
        String type;

        @JsonProperty("nullable")
        Boolean nullable;
    }

    public static Schema read(Path file) {
        String name = file.getFileName().toString().toLowerCase();
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? Json.STRICT_YAML : Json.STRICT_JSON;
        FileSchema fs;
        try {
            fs = mapper.readValue(Files.readAllBytes(file), FileSchema.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("schema file " + file + " does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "schema file " + file + ": cannot read: " + e.getMessage().split("\n")[0], e);
        }
        if (fs == null || fs.fields == null || fs.fields.isEmpty()) {
            throw new IllegalArgumentException("schema file " + file + ": needs a non-empty 'fields' list");
        }
        Schema.Builder b = Schema.newBuilder();
        for (FileField f : fs.fields) {
            if (f.name == null || f.type == null) {
                throw new IllegalArgumentException("schema file " + file + ": every field needs 'name' and 'type'");
            }
            DataType t;
            try {
                t = DataType.parse(f.type);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "schema file " + file + ": field '" + f.name + "': " + e.getMessage(), e);
            }
            if (f.nullable != null) {
                t = t.copy(f.nullable && t.isNullable());
            }
            b.column(f.name, t);
        }
        b.primaryKey(fs.primaryKey.toArray(new String[0]));
        b.partitionKeys(fs.partitionKeys.toArray(new String[0]));
        for (Map.Entry<String, Object> e : fs.options.entrySet()) {
            b.option(e.getKey(), String.valueOf(e.getValue()));
        }
        return b.build();
    }
}
