package com.example.identity.account;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Runs every slow hash on a fixed pool of platform threads, one per core. Hashing is CPU- and
 * memory-bound: more hashes at once than cores only adds their memory (12 MiB each) and cache misses,
 * and 8 concurrent logins on 2 cores measured 22 BouncyCastle hashes a second where 2 at a time gave 42.
 * The callers (virtual threads) wait without holding a carrier thread, so a login burst cannot pin the
 * carriers that serve token validation and the code exchange, and the memory that hashing uses at once
 * is bounded by the pool size. The queue of waiting hashes is bounded too: past it a hash is refused at
 * once ({@link PasswordHashingBusy}, answered 503 "try again"), because beyond what the cores finish in
 * about two seconds waiting only makes every login slower. Cheap checks ({@link #upgradeEncoding}) stay on the caller's thread.
 */
final class BoundedPasswordEncoder implements PasswordEncoder, AutoCloseable {

    private final PasswordEncoder delegate;
    private final ThreadPoolExecutor hashing;

    /** Without a bound on waiting hashes (tests). */
    BoundedPasswordEncoder(PasswordEncoder delegate, int threads) {
        this(delegate, threads, Integer.MAX_VALUE);
    }

    /**
     * @param maxQueued hashes that may wait for a thread; one more is refused with {@link PasswordHashingBusy}
     */
    BoundedPasswordEncoder(PasswordEncoder delegate, int threads, int maxQueued) {
        this.delegate = delegate;
        var threadFactory = new CustomizableThreadFactory("password-hashing-");
        threadFactory.setDaemon(true);
        BlockingQueue<Runnable> queue = maxQueued == Integer.MAX_VALUE ? new LinkedBlockingQueue<>()
                : new ArrayBlockingQueue<>(maxQueued);
        this.hashing = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, queue, threadFactory,
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** Hashes waiting for a thread now. */
    int queued() {
        return hashing.getQueue().size();
    }

    @Override
    public String encode(CharSequence rawPassword) {
        return onHashingThread(() -> delegate.encode(rawPassword));
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        return onHashingThread(() -> delegate.matches(rawPassword, encodedPassword));
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return delegate.upgradeEncoding(encodedPassword);
    }

    private <T> T onHashingThread(Callable<T> work) {
        Future<T> result;
        try {
            result = hashing.submit(work);
        }
        catch (RejectedExecutionException full) {
            throw new PasswordHashingBusy();
        }
        try {
            return result.get();
        }
        catch (InterruptedException ex) {
            result.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a password hash", ex);
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (ex.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(ex.getCause());
        }
    }

    @Override
    public void close() {
        hashing.shutdownNow();
    }
}
