package com.example.identity.federation;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.UUID;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.identity.IdentityApplication;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;

/**
 * Another instance of this very identity service, a real OpenID Connect provider (Spring Authorization
 * Server), on a port of its own with an in-memory H2 database of its own: the "Google" and the "Discord" of
 * the federated login tests. Its accounts and applications are made through its own services.
 */
final class OtherProvider implements AutoCloseable {

    final int port;
    final String issuer;
    private final ConfigurableApplicationContext context;

    private OtherProvider(String issuer, int port, ConfigurableApplicationContext context) {
        this.port = port;
        this.issuer = issuer;
        this.context = context;
    }

    static OtherProvider start() {
        return start("localhost");
    }

    /**
     * The provider at {@code host}: a browser test names it {@code 127.0.0.1}, another site than this service's
     * {@code localhost} (a browser's cookies are per host, not per port).
     */
    static OtherProvider start(String host) {
        int port = freePort();
        String issuer = "http://" + host + ":" + port;
        var context = new SpringApplicationBuilder(IdentityApplication.class).run(
                "--server.port=" + port, "--identity.issuer=" + issuer,
                "--spring.profiles.active=test", "--management.server.port=0",
                "--spring.datasource.url=jdbc:h2:mem:provider-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "--spring.datasource.username=sa", "--spring.datasource.password=", "--identity.demo-data=true",
                "--spring.datasource.hikari.maximum-pool-size=4");
        return new OtherProvider(issuer, port, context);
    }

    /** A first-party application of the provider (no consent page) for the relying party at {@code redirectUri}. */
    ClientService.NewCredentials application(String redirectUri) {
        AccountService accounts = context.getBean(AccountService.class);
        ClientService clients = context.getBean(ClientService.class);
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Servicio de identidad", redirectUri);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), client.clientId(), true);
        return client;
    }

    /** An account at the provider; its address verified there when {@code verified}. */
    long person(String name, String email, String password, boolean verified) {
        AccountService accounts = context.getBean(AccountService.class);
        long id = accounts.create(name, email, password, Role.USER).getId();
        if (verified) {
            accounts.markEmailVerified(id);
        }
        return id;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
