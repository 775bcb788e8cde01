package io.strata.storage.testutil;

import java.io.File;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS in the test JVM for {@code hdfs://} tests: one name node and one data node on
 * 127.0.0.1 with free ports, replication 1, everything under {@code target/} (surefire runs in the
 * module directory). The caller shuts it down ({@code shutdown(true)}).
 */
public final class MiniHdfs {
    private MiniHdfs() {}

    /** Starts a cluster under {@code target/<prefix>-<uuid>} and waits until it serves. */
    public static MiniDFSCluster start(String prefix) throws IOException {
        File base = new File("target", prefix + "-" + UUID.randomUUID()).getAbsoluteFile();
        Configuration c = new Configuration();
        c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getPath());
        c.set("dfs.namenode.http-address", "127.0.0.1:0");
        c.set("dfs.datanode.http.address", "127.0.0.1:0");
        c.setInt("dfs.replication", 1);
        // the client polls the name node while closing a file; start polling sooner than 400 ms
        c.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 10);
        MiniDFSCluster cluster =
                new MiniDFSCluster.Builder(c, base).numDataNodes(1).format(true).build();
        cluster.waitActive();
        return cluster;
    }

    /** {@code hdfs://localhost:<port>/<path>} on {@code cluster}. */
    public static String uri(MiniDFSCluster cluster, String path) {
        return "hdfs://localhost:" + cluster.getNameNodePort() + "/" + path;
    }
}
