package com.example.identity.client;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.example.identity.account.DemoAccountsCreated;

/** The demo application of decisions §9, owned by {@code dev@example.com}, created with the demo accounts. */
@Component
class DemoClient {

    static final String CLIENT_ID = "demo-app";
    static final String CLIENT_SECRET = "demo-app-secret";
    static final String REDIRECT_URI = "http://localhost:9000/callback";
    /** Where the demo application's logout comes back to (decisions §12.7). */
    static final String POST_LOGOUT_REDIRECT_URI = "http://localhost:9000/logged-out";

    private final ClientService clients;

    DemoClient(ClientService clients) {
        this.clients = clients;
    }

    @EventListener
    void onDemoAccountsCreated(DemoAccountsCreated event) {
        if (clients.findByClientId(CLIENT_ID).isEmpty()) {
            clients.registerDemo(event.developerId(), "Aplicación de demostración", REDIRECT_URI, CLIENT_ID, CLIENT_SECRET,
                    POST_LOGOUT_REDIRECT_URI);
        }
    }
}
