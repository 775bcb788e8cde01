package io.strata.scheduler.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.strata.scheduler.config.SchedulerConfig.DatabaseSelection;
import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import io.strata.scheduler.config.SchedulerConfig.TableSelection;
import io.strata.scheduler.config.TableSettings.AutoTag;
import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.scheduler.config.TableSettings.ChangelogExpiration;
import io.strata.scheduler.config.TableSettings.Expiration;
import io.strata.scheduler.config.TableSettings.FullCompaction;
import io.strata.scheduler.config.TableSettings.OrphanCleanup;
import io.strata.scheduler.config.TableSettings.PartitionExpiration;
import io.strata.scheduler.time.OffPeakWindow;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.options.DurationParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.quartz.CronExpression;

/**
 * Reads {@code scheduler.yaml} into a {@link SchedulerConfig}. Every problem (an unknown key, a
 * value of the wrong type, a cron Quartz does not accept, a window without a zone, a duration that
 * does not parse, an unknown {@code runs-on}, a cluster without its REST address or an absent job
 * jar) is a {@link ConfigException} naming the key with its line and column; nothing is started
 * from a config that has one.
 */
public final class ConfigLoader {
    /** Quartz names its fire ids {@code <instance id><13-digit counter>} in a 95-character column. */
    static final int MAX_SCHEDULER_ID_LENGTH = 80;

    static final Duration DEFAULT_CLUSTER_CHECKIN = Duration.ofSeconds(15);
    static final Duration DEFAULT_CATCH_UP_SPREAD = Duration.ofMinutes(10);
    static final Duration MAX_CATCH_UP_SPREAD = Duration.ofDays(1);
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_]+\\.[A-Za-z0-9_]+");
    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private final String file;
    private final KeyLocations locations;

    private ConfigLoader(String file, KeyLocations locations) {
        this.file = file;
        this.locations = locations;
    }

    /** Loads and checks {@code path}. */
    public static SchedulerConfig load(Path path) {
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read scheduler config " + path, e);
        }
        return parse(path.getFileName().toString(), text);
    }

    /** Checks the YAML {@code text}; {@code file} names it in messages. */
    public static SchedulerConfig parse(String file, String text) {
        KeyLocations locations;
        RawConfig raw;
        try (JsonParser p = MAPPER.getFactory().createParser(text)) {
            locations = KeyLocations.index(p);
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation() == null ? JsonLocation.NA : e.getLocation();
            throw new ConfigException(file, "(syntax)", l.getLineNr(), l.getColumnNr(), e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            raw = MAPPER.readValue(text, RawConfig.class);
        } catch (UnrecognizedPropertyException e) {
            // Jackson reports the place after the skipped value; the key itself is where it is written
            String key = KeyLocations.pathOf(e);
            JsonLocation l = locations.of(key);
            TreeSet<String> known = new TreeSet<>();
            e.getKnownPropertyIds().forEach(k -> known.add(String.valueOf(k)));
            throw new ConfigException(
                    file,
                    key,
                    l.getLineNr(),
                    l.getColumnNr(),
                    "unknown key '" + e.getPropertyName() + "' (known here: " + known + ")",
                    e);
        } catch (JsonMappingException e) {
            throw located(file, e, KeyLocations.pathOf(e), e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw located(file, e, "(syntax)", e.getOriginalMessage());
        }
        if (raw == null) {
            throw new ConfigException(file, "(document)", 1, 1, "the config is empty", null);
        }
        return new ConfigLoader(file, locations).check(raw);
    }

    private static ConfigException located(String file, JsonProcessingException e, String key, String reason) {
        JsonLocation l = e.getLocation() == null ? JsonLocation.NA : e.getLocation();
        return new ConfigException(file, key.isEmpty() ? "(document)" : key, l.getLineNr(), l.getColumnNr(), reason, e);
    }

    ConfigException fail(String key, String reason) {
        JsonLocation l = locations.of(key);
        return new ConfigException(file, key, l.getLineNr(), l.getColumnNr(), reason, null);
    }

    private SchedulerConfig check(RawConfig raw) {
        String warehouse = raw.warehouse() == null ? "./warehouse" : raw.warehouse();
        StoreConfig store = store(raw.store(), warehouse);
        TableSelection tables = tables(raw.tables());
        TableSettings defaults = settings(null, null, raw.defaults());
        Map<String, TableSettings> overrides = new LinkedHashMap<>();
        if (raw.overrides() != null) {
            raw.overrides().forEach((table, s) -> {
                if (!TABLE_NAME.matcher(table).matches()) {
                    throw fail("overrides." + table, "an override is keyed by a table name <database>.<table>");
                }
                overrides.put(table, settings(table, s, raw.defaults()));
            });
        }
        Duration discovery =
                duration("discovery-interval", raw.discoveryInterval()).orElse(Duration.ofSeconds(30));
        Duration shutdown = duration("shutdown-timeout", raw.shutdownTimeout()).orElse(Duration.ofMinutes(1));
        int concurrency = raw.maxConcurrentOperations() == null ? 2 : raw.maxConcurrentOperations();
        if (concurrency < 1) {
            throw fail("max-concurrent-operations", "must be at least 1, got " + concurrency);
        }
        int compactions = cap("max-concurrent-compactions", raw.maxConcurrentCompactions(), concurrency);
        int maintenance = cap("max-concurrent-maintenance", raw.maxConcurrentMaintenance(), concurrency);
        String id = raw.schedulerId() == null ? defaultSchedulerId() : raw.schedulerId();
        if (raw.schedulerId() == null && id.length() > MAX_SCHEDULER_ID_LENGTH) {
            throw new ConfigException(
                    file,
                    "scheduler-id",
                    1,
                    1,
                    "the default scheduler-id '" + id + "' is longer than " + MAX_SCHEDULER_ID_LENGTH
                            + " characters (it is the Quartz instance id): set scheduler-id",
                    null);
        }
        if (id.isBlank() || id.length() > MAX_SCHEDULER_ID_LENGTH) {
            throw fail(
                    "scheduler-id",
                    "must be a non-blank name of at most " + MAX_SCHEDULER_ID_LENGTH
                            + " characters (it is the Quartz instance id), got '" + id + "'");
        }
        Duration leaseTtl = duration("lease-ttl", raw.leaseTtl()).orElse(Duration.ofMinutes(2));
        if (leaseTtl.compareTo(Duration.ofSeconds(3)) < 0) {
            throw fail("lease-ttl", "must be at least 3 s (renewed every third of it), got " + raw.leaseTtl());
        }
        Duration retention =
                duration("history-retention", raw.historyRetention()).orElse(Duration.ofDays(30));
        if (retention.isZero() || retention.isNegative()) {
            throw fail("history-retention", "must be positive, got " + raw.historyRetention());
        }
        int bucketSeries = raw.maxBucketSeries() == null ? 20 : raw.maxBucketSeries();
        if (bucketSeries < 0) {
            throw fail("max-bucket-series", "must be 0 or more, got " + bucketSeries);
        }
        Duration catchUpSpread =
                duration("catch-up-spread", raw.catchUpSpread()).orElse(DEFAULT_CATCH_UP_SPREAD);
        if (catchUpSpread.compareTo(MAX_CATCH_UP_SPREAD) > 0) {
            throw fail(
                    "catch-up-spread",
                    "must be at most " + DurationParser.format(MAX_CATCH_UP_SPREAD)
                            + " (0 fires what a downtime left due at once), got " + raw.catchUpSpread());
        }
        return new SchedulerConfig(
                file,
                warehouse,
                store,
                tables,
                defaults,
                overrides,
                discovery,
                shutdown,
                concurrency,
                id,
                leaseTtl,
                retention,
                bucketSeries,
                new ConfigKeys(file, locations),
                compactions,
                maintenance,
                catchUpSpread);
    }

    /**
     * A cap on the operations of one class that run at once: 1 unless given, at least 1 and at
     * most the operation threads (a larger cap could never be reached).
     */
    private int cap(String key, Integer value, int threads) {
        if (value == null) {
            return 1;
        }
        if (value < 1) {
            throw fail(key, "must be at least 1, got " + value);
        }
        if (value > threads) {
            throw fail(
                    key,
                    "must be at most max-concurrent-operations (" + threads + ", the operation threads), got " + value);
        }
        return value;
    }

    /**
     * The host name with a fixed suffix: the same for every restart on that host, so a restart
     * marks the runs its previous process left running as interrupted; and different on every
     * host, so clustered schedulers on separate hosts need no id of their own. Two processes on one
     * host need one each.
     */
    private static String defaultSchedulerId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + "-scheduler";
    }

    private StoreConfig store(RawConfig.Store s, String warehouse) {
        boolean clustered = s != null && s.clustered() != null && s.clustered();
        Duration checkin = duration("store.cluster-checkin-interval", s == null ? null : s.clusterCheckinInterval())
                .orElse(DEFAULT_CLUSTER_CHECKIN);
        if (checkin.compareTo(Duration.ofSeconds(1)) < 0) {
            throw fail("store.cluster-checkin-interval", "must be at least 1 s, got " + s.clusterCheckinInterval());
        }
        if (s != null && s.jdbcUrl() != null) {
            if (s.h2Path() != null) {
                throw fail("store.h2-path", "give either store.h2-path or store.jdbc-url, not both");
            }
            if (!s.jdbcUrl().startsWith("jdbc:h2:") && !s.jdbcUrl().startsWith("jdbc:postgresql:")) {
                throw fail(
                        "store.jdbc-url",
                        "only jdbc:h2: and jdbc:postgresql: job stores are supported, got " + s.jdbcUrl());
            }
            StoreConfig store =
                    new StoreConfig(s.jdbcUrl(), nullToEmpty(s.user()), nullToEmpty(s.password()), clustered, checkin);
            if (clustered && !store.isPostgres()) {
                throw notClusterable(store.jdbcUrl());
            }
            return store;
        }
        String h2 = s != null && s.h2Path() != null ? s.h2Path() : defaultH2Path(warehouse);
        // AUTO_SERVER lets the CLI (history, status, pause) open the file while the service runs
        String url = "jdbc:h2:file:" + Path.of(h2).toAbsolutePath().normalize() + ";AUTO_SERVER=TRUE";
        if (clustered) {
            throw notClusterable(url);
        }
        return new StoreConfig(url, "sa", "", false, checkin);
    }

    private ConfigException notClusterable(String url) {
        return fail(
                "store.clustered",
                "a clustered scheduler needs a PostgreSQL job store that every node reaches (store.jdbc-url: "
                        + "jdbc:postgresql://...), got " + url + " (an H2 database belongs to one process)");
    }

    /** The job store beside a local warehouse (outside any {@code .db} directory, so not a database). */
    private String defaultH2Path(String warehouse) {
        String local = warehouse.startsWith("file:") ? warehouse.replaceFirst("^file:(//)?", "") : warehouse;
        if (local.matches("^[a-z][a-z0-9+.-]*://.*")) {
            throw fail(
                    "store",
                    "the warehouse " + warehouse + " is not local: give store.h2-path (a local file) or "
                            + "store.jdbc-url");
        }
        return Path.of(local, "_scheduler", "quartz").toString();
    }

    private TableSelection tables(RawConfig.Tables t) {
        List<String> names = new ArrayList<>();
        List<DatabaseSelection> databases = new ArrayList<>();
        if (t != null && t.names() != null) {
            for (int i = 0; i < t.names().size(); i++) {
                String n = t.names().get(i);
                if (n == null || !TABLE_NAME.matcher(n).matches()) {
                    throw fail("tables.names[" + i + "]", "expected <database>.<table>, got " + n);
                }
                names.add(n);
            }
        }
        if (t != null && t.databases() != null) {
            for (int i = 0; i < t.databases().size(); i++) {
                RawConfig.Database d = t.databases().get(i);
                if (d.name() == null || d.name().isBlank()) {
                    throw fail("tables.databases[" + i + "]", "a database entry needs a name");
                }
                databases.add(new DatabaseSelection(
                        d.name(),
                        d.include() == null ? List.of("*") : List.copyOf(d.include()),
                        d.exclude() == null ? List.of() : List.copyOf(d.exclude())));
            }
        }
        return new TableSelection(List.copyOf(names), List.copyOf(databases));
    }

    /** The settings of {@code table} (null: the defaults alone), its override {@code over} on {@code base}. */
    private TableSettings settings(String table, RawConfig.Settings over, RawConfig.Settings base) {
        String overPath = "overrides." + table;
        String basePath = "defaults";
        return new TableSettings(
                expiration(layer(over, overPath, base, basePath, "expiration", RawConfig.Settings::expiration)),
                changelogExpiration(layer(
                        over,
                        overPath,
                        base,
                        basePath,
                        "changelog-expiration",
                        RawConfig.Settings::changelogExpiration)),
                partitionExpiration(layer(
                        over,
                        overPath,
                        base,
                        basePath,
                        "partition-expiration",
                        RawConfig.Settings::partitionExpiration)),
                autoTag(layer(over, overPath, base, basePath, "auto-tag", RawConfig.Settings::autoTag)),
                orphanCleanup(
                        layer(over, overPath, base, basePath, "orphan-cleanup", RawConfig.Settings::orphanCleanup)),
                fullCompaction(
                        layer(over, overPath, base, basePath, "full-compaction", RawConfig.Settings::fullCompaction)),
                backlog(layer(
                        over, overPath, base, basePath, "backlog-compaction", RawConfig.Settings::backlogCompaction)),
                CompactionSection.read(
                        this, layer(over, overPath, base, basePath, "compaction", RawConfig.Settings::compaction)));
    }

    private static <R extends Record> Layered<R> layer(
            RawConfig.Settings over,
            String overPath,
            RawConfig.Settings base,
            String basePath,
            String key,
            Function<RawConfig.Settings, R> section) {
        return new Layered<>(
                over == null ? null : section.apply(over),
                overPath + "." + key,
                base == null ? null : section.apply(base),
                basePath + "." + key);
    }

    private static boolean enabled(Layered<?> l) {
        Boolean e = l.get("enabled");
        return l.present() && (e == null || e);
    }

    private Optional<Expiration> expiration(Layered<RawConfig.Expiration> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        Retention r = retention(l);
        return Optional.of(new Expiration(cron(l), zone(l, "zone").orElse(ZoneOffset.UTC), r.min, r.max, r.olderThan));
    }

    private Optional<ChangelogExpiration> changelogExpiration(Layered<RawConfig.Expiration> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        Retention r = retention(l);
        return Optional.of(
                new ChangelogExpiration(cron(l), zone(l, "zone").orElse(ZoneOffset.UTC), r.min, r.max, r.olderThan));
    }

    /** The retention a run of an expiration section overrides: {@code retain-min}, {@code retain-max}, {@code older-than}. */
    private record Retention(OptionalInt min, OptionalInt max, Optional<Duration> olderThan) {}

    private Retention retention(Layered<RawConfig.Expiration> l) {
        Integer min = l.get("retain-min");
        Integer max = l.get("retain-max");
        if (min != null && min < 1) {
            throw fail(l.path("retain-min"), "must be at least 1, got " + min);
        }
        if (max != null && max < 1) {
            throw fail(l.path("retain-max"), "must be at least 1, got " + max);
        }
        if (min != null && max != null && max < min) {
            throw fail(l.path("retain-max"), "must be at least retain-min (" + min + "), got " + max);
        }
        return new Retention(
                min == null ? OptionalInt.empty() : OptionalInt.of(min),
                max == null ? OptionalInt.empty() : OptionalInt.of(max),
                duration(l.path("older-than"), l.get("older-than")));
    }

    private Optional<PartitionExpiration> partitionExpiration(Layered<RawConfig.PartitionExpiration> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        Optional<Duration> olderThan = duration(l.path("older-than"), l.get("older-than"));
        if (olderThan.isPresent() && olderThan.get().isZero()) {
            throw fail(l.path("older-than"), "must be positive: 0 would drop every partition whose time has come");
        }
        String pattern = l.get("timestamp-pattern");
        if (pattern != null && pattern.isBlank()) {
            throw fail(l.path("timestamp-pattern"), "must not be blank, e.g. '$dt' or '$dt $hour:00:00'");
        }
        String formatter = l.get("timestamp-formatter");
        if (formatter != null) {
            try {
                DateTimeFormatter.ofPattern(formatter);
            } catch (IllegalArgumentException e) {
                throw fail(
                        l.path("timestamp-formatter"),
                        "not a java.time pattern (e.g. yyyyMMdd): '" + formatter + "': " + e.getMessage());
            }
        }
        Boolean dryRun = l.get("dry-run");
        return Optional.of(new PartitionExpiration(
                cron(l),
                zone(l, "zone").orElse(ZoneOffset.UTC),
                olderThan,
                Optional.ofNullable(pattern),
                Optional.ofNullable(formatter),
                dryRun != null && dryRun));
    }

    private Optional<AutoTag> autoTag(Layered<RawConfig.AutoTag> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        return Optional.of(new AutoTag(cron(l), zone(l, "zone").orElse(ZoneOffset.UTC)));
    }

    private Optional<OrphanCleanup> orphanCleanup(Layered<RawConfig.OrphanCleanup> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        Boolean dryRun = l.get("dry-run");
        Duration olderThan = duration(l.path("older-than"), l.get("older-than")).orElse(Duration.ofDays(1));
        if (olderThan.compareTo(OrphanFilesClean.MIN_SAFE_AGE) < 0) {
            throw fail(
                    l.path("older-than"),
                    "must be at least 1h: younger files may belong to a commit or compaction in flight");
        }
        return Optional.of(new OrphanCleanup(
                cron(l), zone(l, "zone").orElse(ZoneOffset.UTC), olderThan, dryRun != null && dryRun));
    }

    private Optional<FullCompaction> fullCompaction(Layered<RawConfig.FullCompaction> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        String cron = cron(l);
        String window = l.get("window");
        if (window == null) {
            throw fail(l.path("window"), "full compaction needs an off-peak window, e.g. window: 02:00-05:00");
        }
        Optional<ZoneId> zone = zone(l, "zone");
        if (zone.isEmpty()) {
            throw fail(l.path("window"), "the window " + window + " needs a time zone: add zone: (e.g. Europe/Berlin)");
        }
        try {
            return Optional.of(new FullCompaction(cron, OffPeakWindow.parse(window, zone.get())));
        } catch (IllegalArgumentException e) {
            throw fail(l.path("window"), e.getMessage());
        }
    }

    private Optional<BacklogCompaction> backlog(Layered<RawConfig.BacklogCompaction> l) {
        if (!enabled(l)) {
            return Optional.empty();
        }
        Duration poll =
                duration(l.path("poll-interval"), l.get("poll-interval")).orElse(Duration.ofMinutes(1));
        if (poll.isZero()) {
            throw fail(l.path("poll-interval"), "must be positive");
        }
        Integer runs = l.get("max-sorted-runs");
        Integer level0 = l.get("max-level0-files");
        if (runs != null && runs < 1) {
            throw fail(l.path("max-sorted-runs"), "must be at least 1, got " + runs);
        }
        if (level0 != null && level0 < 1) {
            throw fail(l.path("max-level0-files"), "must be at least 1, got " + level0);
        }
        return Optional.of(new BacklogCompaction(
                poll,
                runs == null ? BacklogCompaction.DEFAULT_THRESHOLD : runs,
                level0 == null ? BacklogCompaction.DEFAULT_THRESHOLD : level0));
    }

    private String cron(Layered<?> l) {
        String cron = l.get("cron");
        if (cron == null) {
            throw fail(l.path("cron"), "a schedule needs a cron expression, e.g. cron: \"0 0 3 * * ?\"");
        }
        try {
            CronExpression.validateExpression(cron);
        } catch (java.text.ParseException e) {
            throw fail(
                    l.path("cron"),
                    "not a Quartz cron expression (seconds minutes hours day-of-month month day-of-week): '" + cron
                            + "': " + e.getMessage());
        }
        return cron;
    }

    private Optional<ZoneId> zone(Layered<?> l, String key) {
        String z = l.get(key);
        if (z == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffPeakWindow.zone(z));
        } catch (IllegalArgumentException e) {
            throw fail(l.path(key), e.getMessage());
        }
    }

    Optional<Duration> duration(String key, String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(DurationParser.parse(text));
        } catch (IllegalArgumentException e) {
            throw fail(key, e.getMessage());
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
