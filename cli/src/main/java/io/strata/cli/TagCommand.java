package io.strata.cli;

import io.strata.storage.options.DurationParser;
import io.strata.storage.snapshot.Tag;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata tag create|delete|list}: named snapshots that expiration and orphan cleanup keep. */
@Command(
        name = "tag",
        mixinStandardHelpOptions = true,
        description = "Create, delete or list tags: named snapshots whose data is kept until the tag goes.",
        subcommands = {TagCommand.Create.class, TagCommand.Delete.class, TagCommand.ListTags.class})
final class TagCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Tag a snapshot (the latest by default).")
    static final class Create implements Callable<Integer> {
        @Mixin
        WarehouseOptions target;

        @Spec
        CommandSpec spec;

        @Option(names = "--name", required = true, paramLabel = "NAME", description = "The tag's name.")
        String name;

        @Option(names = "--snapshot", paramLabel = "ID", description = "The snapshot to tag (default: the latest).")
        Long snapshot;

        @Option(
                names = "--retain",
                paramLabel = "DURATION",
                description = "Keep the tag this long (e.g. 7d); default: until deleted.")
        String retain;

        @Override
        public Integer call() {
            Optional<Duration> keep = Optional.ofNullable(retain).map(r -> {
                try {
                    return DurationParser.parse(r);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--retain: " + e.getMessage(), e);
                }
            });
            Tag t = target.openTable().tags().create(name, Optional.ofNullable(snapshot), keep);
            spec.commandLine()
                    .getOut()
                    .println(
                            "tag '" + t.name() + "' on snapshot " + t.snapshot().id());
            return 0;
        }
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = "Delete a tag (orphan cleanup frees " + "the files nothing else references).")
    static final class Delete implements Callable<Integer> {
        @Mixin
        WarehouseOptions target;

        @Spec
        CommandSpec spec;

        @Option(names = "--name", required = true, paramLabel = "NAME", description = "The tag's name.")
        String name;

        @Override
        public Integer call() {
            target.openTable().tags().delete(name);
            spec.commandLine().getOut().println("tag '" + name + "' deleted");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the tags, like Paimon's $tags.")
    static final class ListTags implements Callable<Integer> {
        @Mixin
        WarehouseOptions target;

        @Spec
        CommandSpec spec;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() {
            TagsCommand.print(target.openTable(), spec.commandLine().getOut(), json);
            return 0;
        }
    }
}
