package io.strata.storage.snapshot;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One committed version of a table, persisted as {@code snapshot/snapshot-<id>} (JSON) and never
 * modified. The base manifest list describes every live file of this version; the delta list
 * what this commit added and deleted (its manifests are also part of the base); the changelog
 * list, when present, the changelog files this commit produced.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class Snapshot {
    public static final int FORMAT_VERSION = 1;

    private final long id;
    private final long schemaId;
    private final String baseManifestList;
    private final String deltaManifestList;
    private final String changelogManifestList;
    private final String commitUser;
    private final long commitIdentifier;
    private final CommitKind commitKind;
    private final long timeMillis;
    private final long totalRecordCount;
    private final long deltaRecordCount;
    private final Long changelogRecordCount;
    private final Long watermark;

    @JsonCreator
    public Snapshot(
            @JsonProperty("id") long id,
            @JsonProperty("schemaId") long schemaId,
            @JsonProperty("baseManifestList") String baseManifestList,
            @JsonProperty("deltaManifestList") String deltaManifestList,
            @JsonProperty("changelogManifestList") String changelogManifestList,
            @JsonProperty("commitUser") String commitUser,
            @JsonProperty("commitIdentifier") long commitIdentifier,
            @JsonProperty("commitKind") CommitKind commitKind,
            @JsonProperty("timeMillis") long timeMillis,
            @JsonProperty("totalRecordCount") long totalRecordCount,
            @JsonProperty("deltaRecordCount") long deltaRecordCount,
            @JsonProperty("changelogRecordCount") Long changelogRecordCount,
            @JsonProperty("watermark") Long watermark) {
        this.id = id;
        this.schemaId = schemaId;
        this.baseManifestList = baseManifestList;
        this.deltaManifestList = deltaManifestList;
        this.changelogManifestList = changelogManifestList;
        this.commitUser = commitUser;
        this.commitIdentifier = commitIdentifier;
        this.commitKind = commitKind;
        this.timeMillis = timeMillis;
        this.totalRecordCount = totalRecordCount;
        this.deltaRecordCount = deltaRecordCount;
        this.changelogRecordCount = changelogRecordCount;
        this.watermark = watermark;
    }

    @JsonProperty("version")
    public int version() {
        return FORMAT_VERSION;
    }

    @JsonProperty("id")
    public long id() {
        return id;
    }

    @JsonProperty("schemaId")
    public long schemaId() {
        return schemaId;
    }

    @JsonProperty("baseManifestList")
    public String baseManifestList() {
        return baseManifestList;
    }

    @JsonProperty("deltaManifestList")
    public String deltaManifestList() {
        return deltaManifestList;
    }

    @JsonProperty("changelogManifestList")
    public String changelogManifestList() {
        return changelogManifestList;
    }

    @JsonProperty("commitUser")
    public String commitUser() {
        return commitUser;
    }

    @JsonProperty("commitIdentifier")
    public long commitIdentifier() {
        return commitIdentifier;
    }

    @JsonProperty("commitKind")
    public CommitKind commitKind() {
        return commitKind;
    }

    @JsonProperty("timeMillis")
    public long timeMillis() {
        return timeMillis;
    }
    /** Rows in all live data files (before merging: a key with three versions counts three times). */
    @JsonProperty("totalRecordCount")
    public long totalRecordCount() {
        return totalRecordCount;
    }
    /** Rows added minus rows deleted by this commit's files. */
    @JsonProperty("deltaRecordCount")
    public long deltaRecordCount() {
        return deltaRecordCount;
    }

    @JsonProperty("changelogRecordCount")
    public Long changelogRecordCount() {
        return changelogRecordCount;
    }

    @JsonProperty("watermark")
    public Long watermark() {
        return watermark;
    }

    @Override
    public String toString() {
        return "Snapshot{id=" + id + ", kind=" + commitKind + ", user=" + commitUser + ", identifier="
                + commitIdentifier + "}";
    }
}
