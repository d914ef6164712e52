package com.example.identity.webhooks;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.EntityManager;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.AccountDeleting;
import com.example.identity.account.AccountLocks;
import com.example.identity.account.ProfileChanged;

/**
 * The account's events become webhooks (docs/webhooks.md), in the transaction of the change:
 * <ul>
 * <li>{@code ProfileChanged} (a name, a verified address) and {@code AccountChanged} (an address, a role, a
 * disabling, an enabling, a password reset) mark the account; just before the transaction commits, each marked
 * account still there is read once, under its row lock (so two concurrent changes of one person are enqueued in
 * the order they commit), and becomes {@code usuario.actualizado}, or {@code usuario.desactivado} when it is
 * disabled. Several changes in one transaction make one event.</li>
 * <li>{@code AccountDeleting} becomes {@code usuario.eliminado} at once, while the rows that say which applications
 * the person used still exist.</li>
 * </ul>
 */
@Component
class AccountEvents {

    static final String UPDATED = "usuario.actualizado";
    static final String DISABLED = "usuario.desactivado";
    static final String DELETED = "usuario.eliminado";

    private final WebhookEndpoints endpoints;
    private final WebhookMessages messages;
    private final AccountLocks locks;
    private final EntityManager entities;
    private final TransactionTemplate transactions;

    AccountEvents(WebhookEndpoints endpoints, WebhookMessages messages, AccountLocks locks, EntityManager entities,
            TransactionTemplate transactions) {
        this.endpoints = endpoints;
        this.messages = messages;
        this.locks = locks;
        this.entities = entities;
        this.transactions = transactions;
    }

    @EventListener
    void onProfileChanged(ProfileChanged event) {
        changed(event.userId());
    }

    @EventListener
    void onAccountChanged(AccountChanged event) {
        changed(event.userId());
    }

    @EventListener
    void onAccountDeleting(AccountDeleting event) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", event.userId());
        data.put("sub", "user:" + event.userId());
        for (String clientId : endpoints.recipients(event.userId())) {
            messages.enqueue(clientId, "user:" + event.userId(), DELETED, data);
        }
        Marked marked = marked();
        if (marked != null) {
            marked.deleted.add(event.userId());
        }
    }

    private void changed(long userId) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            transactions.executeWithoutResult(status -> announce(userId));
            return;
        }
        Marked marked = marked();
        if (marked == null) {
            marked = new Marked();
            TransactionSynchronizationManager.registerSynchronization(marked);
        }
        marked.users.add(userId);
    }

    /** This transaction's marks, if it has any yet. */
    private static Marked marked() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return null;
        }
        return TransactionSynchronizationManager.getSynchronizations().stream().filter(Marked.class::isInstance)
                .map(Marked.class::cast).findFirst().orElse(null);
    }

    /** The accounts a transaction changed, announced before it commits. */
    private final class Marked implements TransactionSynchronization {

        final Set<Long> users = new LinkedHashSet<>();
        final Set<Long> deleted = new LinkedHashSet<>();

        @Override
        public void beforeCommit(boolean readOnly) {
            entities.flush(); // the changes made through JPA reach the row (and take its lock) before it is read
            users.stream().filter(id -> !deleted.contains(id)).forEach(AccountEvents.this::announce);
        }
    }

    private void announce(long userId) {
        AccountLocks.Profile row = locks.lockAndRead(userId).orElse(null);
        if (row == null) {
            return; // deleted: usuario.eliminado went when it was
        }
        boolean enabled = row.enabled();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", userId);
        data.put("sub", "user:" + userId);
        data.put("primer_nombre", row.primerNombre());
        data.put("correo", row.correo());
        data.put("rol", row.rol());
        data.put("activo", enabled);
        for (String clientId : endpoints.recipients(userId)) {
            messages.enqueue(clientId, "user:" + userId, enabled ? UPDATED : DISABLED, data);
        }
    }
}
