package io.strata.scheduler.history;

import java.time.Instant;
import java.util.Optional;

/**
 * One run of an operation on a table, as recorded. {@code end} is empty while it is {@link
 * RunOutcome#RUNNING}; {@code fireId} names the trigger firing that started it (empty when started
 * by hand); {@code heldBack} says what held the operation back and {@code error} how it failed,
 * both truncated to {@link RunHistory#MAX_TEXT_LENGTH} characters.
 */
public record Run(
        long id,
        String table,
        String operation,
        Optional<String> fireId,
        String owner,
        Instant start,
        Optional<Instant> end,
        RunOutcome outcome,
        RunCounters counters,
        Optional<String> heldBack,
        Optional<String> error) {}
