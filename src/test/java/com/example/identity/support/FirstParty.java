package com.example.identity.support;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;

/**
 * Tests that exercise the login and code flows, not consent, use first-party applications (as the demo
 * application is), marked so by the admin action the dashboard offers.
 */
public final class FirstParty {

    private static final Caller ADMIN = new Caller(0, true);

    private FirstParty() {
    }

    /** Registers an application as a developer would, then marks it first-party. */
    public static ClientService.NewCredentials register(ClientService clients, long ownerId, String name,
            String redirectUri) {
        ClientService.NewCredentials created = clients.register(ownerId, name, redirectUri);
        clients.setFirstParty(ADMIN, created.clientId(), true);
        return created;
    }
}
