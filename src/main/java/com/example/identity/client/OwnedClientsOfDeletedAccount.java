package com.example.identity.client;

import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountDeleting;

/**
 * An account is being deleted (account/AccountDeletion): the applications it owns are revoked first, as an
 * admin's revocation does (their tokens refused, every instance's caches told), in the deleting transaction;
 * the rows themselves go with the account's.
 */
@Component
class OwnedClientsOfDeletedAccount {

    private final ClientService clients;

    OwnedClientsOfDeletedAccount(ClientService clients) {
        this.clients = clients;
    }

    @EventListener
    @Order(Ordered.HIGHEST_PRECEDENCE)
    void onAccountDeleting(AccountDeleting event) {
        clients.listForOwner(event.userId()).forEach(client -> clients.revoke(client.getClientId()));
    }
}
