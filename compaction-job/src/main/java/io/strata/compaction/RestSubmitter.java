package io.strata.compaction;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.rest.FileUpload;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.messages.EmptyMessageParameters;
import org.apache.flink.runtime.rest.messages.EmptyRequestBody;
import org.apache.flink.runtime.rest.messages.JobAccumulatorsHeaders;
import org.apache.flink.runtime.rest.messages.JobAccumulatorsInfo;
import org.apache.flink.runtime.rest.messages.JobAccumulatorsMessageParameters;
import org.apache.flink.runtime.rest.messages.JobCancellationHeaders;
import org.apache.flink.runtime.rest.messages.JobCancellationMessageParameters;
import org.apache.flink.runtime.rest.messages.JobExceptionsHeaders;
import org.apache.flink.runtime.rest.messages.JobExceptionsInfoWithHistory;
import org.apache.flink.runtime.rest.messages.JobMessageParameters;
import org.apache.flink.runtime.rest.messages.TerminationModeQueryParameter;
import org.apache.flink.runtime.rest.messages.job.JobExceptionsMessageParameters;
import org.apache.flink.runtime.rest.messages.job.JobStatusInfoHeaders;
import org.apache.flink.runtime.webmonitor.handlers.JarListHeaders;
import org.apache.flink.runtime.webmonitor.handlers.JarListInfo;
import org.apache.flink.runtime.webmonitor.handlers.JarRunHeaders;
import org.apache.flink.runtime.webmonitor.handlers.JarRunMessageParameters;
import org.apache.flink.runtime.webmonitor.handlers.JarRunRequestBody;
import org.apache.flink.runtime.webmonitor.handlers.JarUploadHeaders;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Submits the job to a running Flink cluster through its REST API, two ways.
 *
 * <ul>
 *   <li>The static methods build the job graph here and attach the shaded job jar to it, so the
 *       jar travels with every submission; the cluster runs the job detached.
 *   <li>A connection ({@link #connect}) to one cluster, what the scheduler uses: the shaded jar is
 *       uploaded once ({@code POST /jars/upload}) and each job is run from it ({@code POST
 *       /jars/<id>/run}: the job's {@code main} runs inside the JobManager, as from the web UI),
 *       under a job id the caller chooses, so that it can cancel a job whose run request it gave up
 *       on. The connection reads a job's status, its failure from the exceptions endpoint and its
 *       accumulators, and cancels it. It owns a Flink {@link RestClient} and the thread that
 *       completes its responses; {@link #close} releases both.
 * </ul>
 */
public final class RestSubmitter implements AutoCloseable {
    /** How long one REST call other than an upload or a jar run may take. */
    private static final Duration CALL = Duration.ofSeconds(30);
    /** A jar run plans the job in the JobManager (its main opens the tables); an upload moves the jar. */
    private static final Duration LONG_CALL = Duration.ofMinutes(5);

    private final String host;
    private final int port;
    private final ExecutorService responses;
    private final RestClient client;

    private RestSubmitter(String host, int port, ExecutorService responses, RestClient client) {
        this.host = host;
        this.port = port;
        this.responses = responses;
        this.client = client;
    }

    /** Builds the job graph of {@code spec}, with {@code jobJar} (the shaded jar) attached when given. */
    public static JobGraph jobGraph(JobSpec spec, File jobJar) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        CompactionPipeline.build(env, spec)
                .sinkTo(new DiscardingSink<CompactionEvent>())
                .name("events")
                .setParallelism(1);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(CompactionJob.jobName(spec));
        JobGraph job = graph.getJobGraph();
        if (jobJar != null) {
            if (!jobJar.isFile()) {
                throw new IllegalArgumentException("job jar " + jobJar + " does not exist (build it with mvn package)");
            }
            job.addJar(new Path(jobJar.toURI()));
        }
        return job;
    }

    public static JobID submit(RestClusterClient<?> client, JobSpec spec, File jobJar) throws Exception {
        return client.submitJob(jobGraph(spec, jobJar)).get();
    }

    /** Submits to the cluster whose REST endpoint is {@code host:port}. */
    public static JobID submit(String host, int port, JobSpec spec, File jobJar) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, host);
        conf.set(RestOptions.PORT, port);
        try (RestClusterClient<String> client = new RestClusterClient<>(conf, "strata")) {
            return submit(client, spec, jobJar);
        }
    }

    /** A connection to the REST endpoint {@code host:port}; nothing is sent until the first call. */
    public static RestSubmitter connect(String host, int port) throws IOException {
        String address = host + ":" + port;
        ExecutorService responses = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "strata-flink-rest-" + address);
            t.setDaemon(true);
            return t;
        });
        try {
            return new RestSubmitter(host, port, responses, new RestClient(new Configuration(), responses));
        } catch (Exception e) {
            responses.shutdownNow();
            throw new IOException("cannot create a REST client for the Flink cluster at " + address, e);
        }
    }

    /** {@code host:port}, for messages. */
    public String address() {
        return host + ":" + port;
    }

    /** Uploads {@code jar} ({@code POST /jars/upload}); returns the id the cluster stored it under. */
    public String uploadJar(File jar) throws IOException, InterruptedException {
        if (!jar.isFile()) {
            throw new IllegalArgumentException("job jar " + jar + " does not exist (build it with mvn package)");
        }
        String stored = await(
                        "upload " + jar,
                        client.sendRequest(
                                host,
                                port,
                                JarUploadHeaders.getInstance(),
                                EmptyMessageParameters.getInstance(),
                                EmptyRequestBody.getInstance(),
                                List.of(new FileUpload(jar.toPath(), "application/x-java-archive"))),
                        LONG_CALL)
                .getFilename();
        // the response names the stored file; its name is the jar's id
        return stored.substring(stored.lastIndexOf('/') + 1);
    }

    /** Whether the cluster still has the jar {@code jarId} ({@code GET /jars}); a restarted JobManager may not. */
    public boolean hasJar(String jarId) throws IOException, InterruptedException {
        JarListInfo jars = await(
                "list jars",
                client.sendRequest(
                        host,
                        port,
                        JarListHeaders.getInstance(),
                        EmptyMessageParameters.getInstance(),
                        EmptyRequestBody.getInstance()),
                CALL);
        return jars.jarFileList.stream().anyMatch(j -> jarId.equals(j.id));
    }

    /**
     * Runs the uploaded jar {@code jarId} with the job's {@code main} and {@code args} as job
     * {@code jobId} ({@code POST /jars/<id>/run}); returns once the cluster has accepted the job.
     * The arguments are checked here first, so a bad one fails before anything is sent.
     *
     * @throws IOException with Flink's answer when the cluster refuses the run (an unknown jar, or
     *     what the job's main threw: an unknown table, an invalid option)
     */
    public JobID runJar(String jarId, CompactionJob.Args args, JobID jobId) throws IOException, InterruptedException {
        JobSpec spec = args.toSpec();
        JarRunMessageParameters params = JarRunHeaders.getInstance().getUnresolvedMessageParameters();
        params.jarIdPathParameter.resolve(jarId);
        JarRunRequestBody body = new JarRunRequestBody(
                CompactionJob.class.getName(), args.toArgv(), spec.parallelism(), jobId, null, null, null, Map.of());
        return await(
                        "run jar " + jarId + " as job " + jobId,
                        client.sendRequest(host, port, JarRunHeaders.getInstance(), params, body),
                        LONG_CALL)
                .getJobId();
    }

    /** The job's status ({@code GET /jobs/<id>/status}). */
    public JobStatus status(JobID jobId) throws IOException, InterruptedException {
        JobMessageParameters params = new JobMessageParameters();
        params.jobPathParameter.resolve(jobId);
        return await(
                        "status of job " + jobId,
                        client.sendRequest(
                                host, port, JobStatusInfoHeaders.getInstance(), params, EmptyRequestBody.getInstance()),
                        CALL)
                .getJobStatus();
    }

    /** Asks the cluster to cancel the job ({@code PATCH /jobs/<id>?mode=cancel}); returns once it has accepted. */
    public void cancel(JobID jobId) throws IOException, InterruptedException {
        JobCancellationMessageParameters params = new JobCancellationMessageParameters()
                .resolveJobId(jobId)
                .resolveTerminationMode(TerminationModeQueryParameter.TerminationMode.CANCEL);
        await(
                "cancel job " + jobId,
                client.sendRequest(
                        host, port, JobCancellationHeaders.getInstance(), params, EmptyRequestBody.getInstance()),
                CALL);
    }

    /**
     * The latest failure of the job from {@code GET /jobs/<id>/exceptions}: the exception's class
     * and message and those of its causes, one a line, the first of them that is not one of
     * Flink's wrappers first (for a job whose restarts are exhausted Flink records its own
     * "Recovery is suppressed" exception with the job's failure as its cause); empty if the
     * cluster recorded none.
     */
    public Optional<String> failure(JobID jobId) throws IOException, InterruptedException {
        JobExceptionsMessageParameters params = new JobExceptionsMessageParameters();
        params.jobPathParameter.resolve(jobId);
        JobExceptionsInfoWithHistory info = await(
                "exceptions of job " + jobId,
                client.sendRequest(
                        host, port, JobExceptionsHeaders.getInstance(), params, EmptyRequestBody.getInstance()),
                CALL);
        return info.getExceptionHistory().getEntries().stream().findFirst().map(e -> {
            List<String> lines =
                    (e.getStacktrace() == null ? "" : e.getStacktrace()).lines().toList();
            // the exception and its causes, without their frames
            String chain = lines.stream()
                    .filter(l -> l == lines.get(0) || l.startsWith("Caused by: "))
                    .collect(Collectors.joining("\n"));
            return chain.isEmpty() ? e.getExceptionName() : causeFirst(chain);
        });
    }

    /** {@code chain} (an exception and its "Caused by: " lines) with its first exception not of Flink first. */
    static String causeFirst(String chain) {
        List<String> lines = chain.lines().toList();
        for (int i = 1; i < lines.size(); i++) {
            String exception = lines.get(i).substring(lines.get(i).startsWith("Caused by: ") ? 11 : 0);
            if (!exception.startsWith("org.apache.flink.") && !exception.startsWith("java.util.concurrent.")) {
                if (!lines.get(0).startsWith("org.apache.flink.")) {
                    return chain;
                }
                List<String> reordered = new ArrayList<>();
                reordered.add(exception);
                for (int j = 0; j < lines.size(); j++) {
                    if (j != i) {
                        reordered.add((j == 0 ? "under: " : "") + lines.get(j));
                    }
                }
                return String.join("\n", reordered);
            }
        }
        return chain;
    }

    /** The job's user accumulators by name, each as its value prints ({@code GET /jobs/<id>/accumulators}). */
    public Map<String, String> accumulators(JobID jobId) throws IOException, InterruptedException {
        JobAccumulatorsMessageParameters params = new JobAccumulatorsMessageParameters();
        params.jobPathParameter.resolve(jobId);
        params.includeSerializedAccumulatorsParameter.resolve(List.of(false));
        JobAccumulatorsInfo info = await(
                "accumulators of job " + jobId,
                client.sendRequest(
                        host, port, JobAccumulatorsHeaders.getInstance(), params, EmptyRequestBody.getInstance()),
                CALL);
        return info.getUserAccumulators().stream()
                .collect(Collectors.toMap(
                        JobAccumulatorsInfo.UserTaskAccumulator::getName,
                        JobAccumulatorsInfo.UserTaskAccumulator::getValue,
                        (a, b) -> b));
    }

    /**
     * Waits for one call. An interrupt of the waiting thread abandons the call (the request may
     * still reach the cluster) and is rethrown.
     */
    private <T> T await(String what, CompletableFuture<T> call, Duration timeout)
            throws IOException, InterruptedException {
        try {
            return call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            call.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw new IOException(
                    "Flink cluster at " + address() + ": " + what + " failed: "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new IOException(
                    "Flink cluster at " + address() + ": " + what + " got no answer within " + timeout, e);
        }
    }

    /** Closes the REST client (its connections and event loop) and the response thread. */
    @Override
    public void close() {
        try {
            client.closeAsync().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the event loop is being shut down; nothing of this client is left to use
        } finally {
            responses.shutdownNow();
        }
    }
}
