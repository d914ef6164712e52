package com.example.identity.common;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Cache evictions that must hold: run now and, inside a transaction, once more when it completes, so a
 * concurrent request cannot put back a value that the transaction is about to change.
 */
public final class AfterCommit {

    private AfterCommit() {
    }

    public static void nowAndAfterCompletion(Runnable action) {
        action.run();
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    action.run();
                }
            });
        }
    }

    /** Runs {@code action} once the transaction committed (at once without a transaction); never on rollback. */
    public static void onCommit(Runnable action) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            action.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                action.run();
            }
        });
    }
}
