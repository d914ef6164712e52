package com.example.identity.common;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Work that must happen once across every instance sharing the database (decisions §13): the caller's
 * work runs in a new transaction that first locks the named row of {@code cluster_locks} (migration
 * V15) with {@code select ... for update}, so a second instance waits until the first commits and then
 * sees its result. The same statement works on PostgreSQL and H2. Each row also carries a version,
 * which the work bumps when it changes something other instances must reload.
 */
@Component
public class ClusterLock {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final boolean postgres;

    ClusterLock(JdbcTemplate jdbc, PlatformTransactionManager transactionManager,
            org.springframework.core.env.Environment environment) {
        this.jdbc = jdbc;
        this.postgres = environment.getProperty("spring.datasource.url", "").startsWith("jdbc:postgresql:");
        this.transactions = new TransactionTemplate(transactionManager);
        this.transactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** Runs {@code work} in a new transaction holding the lock {@code name} until it commits. */
    public <T> T holding(String name, Supplier<T> work) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return holdingOnce(name, work);
            }
            catch (org.springframework.dao.QueryTimeoutException | org.springframework.dao.PessimisticLockingFailureException e) {
                // H2 gives up waiting for a row lock after 2 s (PostgreSQL waits): another instance's
                // first start can take longer (three Argon2id hashes), so wait again, up to a minute
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    private <T> T holdingOnce(String name, Supplier<T> work) {
        return transactions.execute(status -> {
            Long locked = jdbc.query("select version from cluster_locks where name = ? for update",
                    rs -> rs.next() ? rs.getLong(1) : null, name);
            if (locked == null) {
                throw new IllegalStateException("no cluster lock named " + name + " (migration V15)");
            }
            return work.get();
        });
    }

    /**
     * Takes the lock {@code name} in the caller's own transaction, held until it commits or rolls back: a check
     * made after it (a count) and the change that depends on it are one step for every instance. Take it before
     * any row the work changes, so that two such transactions queue here rather than deadlock elsewhere.
     *
     * @throws IllegalStateException outside a transaction
     */
    public void holdInThisTransaction(String name) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("cluster lock " + name + " taken outside a transaction");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                Long locked = jdbc.query("select version from cluster_locks where name = ? for update",
                        rs -> rs.next() ? rs.getLong(1) : null, name);
                if (locked == null) {
                    throw new IllegalStateException("no cluster lock named " + name);
                }
                return;
            }
            catch (org.springframework.dao.QueryTimeoutException | org.springframework.dao.PessimisticLockingFailureException e) {
                // H2 gives up on a row lock after 2 s and keeps the transaction (PostgreSQL waits): wait again
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    /**
     * Scheduled work that one instance at a time should do (purges): runs {@code work} in a new
     * transaction holding PostgreSQL's transaction-level advisory lock for {@code name}
     * ({@code pg_try_advisory_xact_lock}); when another instance holds it, skips the run and returns
     * false. Nothing to take on H2, which serves one instance only. Any name works; no table row needed.
     */
    public boolean runIfFree(String name, Runnable work) {
        Boolean ran = transactions.execute(status -> {
            if (postgres && !Boolean.TRUE.equals(jdbc.queryForObject(
                    "select pg_try_advisory_xact_lock(hashtext(?))", Boolean.class, "identity:" + name))) {
                return false;
            }
            work.run();
            return true;
        });
        return Boolean.TRUE.equals(ran);
    }

    /** Inside {@link #holding}: records a change, so that other instances reload. */
    public void bumpVersion(String name) {
        jdbc.update("update cluster_locks set version = version + 1 where name = ?", name);
    }

    /** The number of changes recorded under {@code name}: one indexed read, no lock. */
    public long version(String name) {
        Long version = jdbc.queryForObject("select version from cluster_locks where name = ?", Long.class, name);
        return version == null ? 0 : version;
    }
}
