package io.strata.storage.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * A column: a table-unique id that never changes (data files name columns by it, so a file
 * written under an older schema is read by id, not by position), a name and a type.
 */
public final class DataField {
    private final int id;
    private final String name;
    private final DataType type;

    public DataField(int id, String name, DataType type) {
        this.id = id;
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
    }

    @JsonCreator
    static DataField fromJson(
            @JsonProperty("id") int id, @JsonProperty("name") String name, @JsonProperty("type") String type) {
        return new DataField(id, name, DataType.parse(type));
    }

    @JsonProperty("id")
    public int id() {
        return id;
    }

    @JsonProperty("name")
    public String name() {
        return name;
    }

    public DataType type() {
        return type;
    }

    @JsonProperty("type")
    String typeText() {
        return type.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DataField)) {
            return false;
        }
        DataField f = (DataField) o;
        return id == f.id && name.equals(f.name) && type.equals(f.type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, type);
    }

    @Override
    public String toString() {
        return name + " " + type;
    }
}
