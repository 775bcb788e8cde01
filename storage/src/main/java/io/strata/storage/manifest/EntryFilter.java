package io.strata.storage.manifest;

/**
 * Which manifest entries a scan wants: by partition (also used to skip whole manifests from their
 * partition ranges) and by bucket. Implementations must be conservative: "may contain" may say
 * yes when unsure, never no.
 */
public interface EntryFilter {
    EntryFilter ALL = new EntryFilter() {};

    /** May a manifest whose partitions lie in [min[i], max[i]] per field contain a wanted partition? */
    default boolean mayContainPartitions(Object[] min, Object[] max) {
        return true;
    }

    default boolean accept(Object[] partition, int bucket) {
        return true;
    }
}
