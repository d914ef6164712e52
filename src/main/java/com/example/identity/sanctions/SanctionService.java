package com.example.identity.sanctions;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountService;
import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientType;
import com.example.identity.client.ClientService;
import com.example.identity.client.OAuthClient;
import com.example.identity.sanctions.SanctionRefused.Reason;

/**
 * Placing, lifting and listing sanctions (decisions §26), one service behind {@code /api/sanciones/*.php} and the
 * sanctions page, with the same rules for both: an admin everywhere, an application's owner (or their
 * {@code servidor} application's token) in their own applications only ({@link Sanctioner}).
 *
 * <p>Placing one, in one transaction: the row, then what it does ({@link SanctionEffects}: the person's cached
 * sanctions evicted on every instance, {@code usuario.sancionado} for the applications concerned, their tokens revoked
 * and codes expired, of that application or of all, and for a global one every session of the person ended on every
 * instance), the audit line. A global one takes the admins' lock first (two admins suspending each other at once).
 * Lifting one: the row, the cache, {@code usuario.sancion_levantada}, the audit line (nothing revoked comes back). The end at {@code hasta} needs no write: {@link Sanctions} compares the
 * time; {@link SanctionEnds} tells the applications afterwards.
 */
@Service
public class SanctionService {

    /** The latest {@code hasta} taken: the end of year 9999. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");
    public static final int MAX_MOTIVO = 200;

    static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final SanctionStore store;
    private final SanctionEffects effects;
    private final AccountService accounts;
    private final AccountAdministration administration;
    private final ClientService clients;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    SanctionService(SanctionStore store, SanctionEffects effects, AccountService accounts,
            AccountAdministration administration, ClientService clients, ApplicationEventPublisher events, Clock clock) {
        this.store = store;
        this.effects = effects;
        this.accounts = accounts;
        this.administration = administration;
        this.clients = clients;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Places a sanction on {@code userId}: in application {@code clientId}, or everywhere when it is null; until
     * {@code hasta} (to the second), or for good when it is null.
     *
     * @throws SanctionRefused with the first of {@link Reason}'s refusals that applies
     */
    @Transactional
    public Sanction place(Sanctioner who, long userId, @Nullable String motivo, @Nullable Instant hasta,
            @Nullable String clientId) {
        String reason = motivo(motivo);
        Instant now = clock.instant();
        // to the second, as every answer shows it (the API, the webhooks, the pages)
        Instant end = hasta == null ? null : hasta.truncatedTo(ChronoUnit.SECONDS);
        if (end != null && (!end.isAfter(now) || end.isAfter(LATEST))) {
            throw new SanctionRefused(Reason.HASTA_INVALID);
        }
        if (clientId == null && !who.mayActEverywhere()) {
            throw new SanctionRefused(Reason.DENIED);
        }
        if (accounts.findById(userId).isEmpty()) {
            throw new SanctionRefused(Reason.USER_NOT_FOUND);
        }
        if (clientId != null) {
            OAuthClient application = clients.findByClientId(clientId).filter(c -> !c.isRevoked())
                    .orElseThrow(() -> new SanctionRefused(Reason.CLIENT_NOT_FOUND));
            if (application.getType() == ClientType.SERVER) {
                throw new SanctionRefused(Reason.CLIENT_IS_SERVER);
            }
            if (!who.mayActIn(application.getOwnerId())) {
                throw new SanctionRefused(Reason.DENIED);
            }
        }
        if (userId == who.userId()) {
            throw new SanctionRefused(Reason.OWN_ACCOUNT);
        }
        if (clientId == null) {
            // two admins suspending each other at once: the second waits here, then finds itself suspended
            administration.holdAdminsLock();
            if (store.open(who.userId(), now).stream().anyMatch(s -> s.isGlobal() && s.inForceAt(now))) {
                throw new SanctionRefused(Reason.DENIED);
            }
        }
        Sanction placed = store.insert(userId, reason, end, clientId, who.userId(), who.serverClientId(), now);
        int revoked = effects.placed(placed);
        events.publishEvent(new AuditEvent(AuditEvent.Type.SANCTION_PLACED, describe(placed)
                + "; tokens revocados: " + revoked, who.actor()));
        return placed;
    }

    /**
     * Lifts sanction {@code id} early. Lifting one lifted already, or one that has ended, changes nothing.
     *
     * @throws SanctionRefused {@link Reason#NOT_FOUND} when there is none that {@code who} may see
     */
    @Transactional
    public void lift(Sanctioner who, long id) {
        Sanction found = store.find(id).filter(s -> maySee(who, s))
                .orElseThrow(() -> new SanctionRefused(Reason.NOT_FOUND));
        Instant now = clock.instant();
        if (!store.lift(id, who.userId(), now)) {
            return;
        }
        Sanction lifted = new Sanction(found.id(), found.userId(), found.motivo(), found.hasta(), found.clientId(),
                found.placedBy(), found.placedByClient(), found.createdAt(), now);
        effects.ended(lifted);
        events.publishEvent(new AuditEvent(AuditEvent.Type.SANCTION_LIFTED, describe(lifted), who.actor()));
    }

    /**
     * The sanctions of {@code userId} that {@code who} may see, newest first: all of them for an admin, those in
     * their own applications for anyone else.
     *
     * @throws SanctionRefused {@link Reason#USER_NOT_FOUND} when there is no such account
     */
    @Transactional(readOnly = true)
    public List<Sanction> ofUser(Sanctioner who, long userId) {
        if (accounts.findById(userId).isEmpty()) {
            throw new SanctionRefused(Reason.USER_NOT_FOUND);
        }
        return who.mayActEverywhere() ? store.ofUser(userId) : store.ofUserIn(userId, ownApplications(who));
    }

    /** One page of the sanctions {@code who} may see, newest first; {@code more} when a next page has some. */
    @Transactional(readOnly = true)
    public Page page(Sanctioner who, int page, int size) {
        long offset = (long) (page - 1) * size;
        List<Sanction> rows = who.mayActEverywhere() ? store.page(offset, size + 1)
                : store.pageIn(ownApplications(who), offset, size + 1);
        return new Page(rows.stream().limit(size).toList(), rows.size() > size);
    }

    /** A page of sanctions, and whether another follows. */
    public record Page(List<Sanction> sanctions, boolean more) {
    }

    /** Every sanction of {@code userId}, newest first: the person's own data download (settings/DataExport). */
    @Transactional(readOnly = true)
    public List<Sanction> ofPerson(long userId) {
        return store.ofUser(userId);
    }

    private Set<String> ownApplications(Sanctioner who) {
        return clients.listForOwner(who.userId()).stream().map(OAuthClient::getClientId).collect(Collectors.toSet());
    }

    private boolean maySee(Sanctioner who, Sanction sanction) {
        if (who.mayActEverywhere()) {
            return true;
        }
        String clientId = sanction.clientId();
        Optional<OAuthClient> application = clientId == null ? Optional.empty() : clients.findByClientId(clientId);
        return application.map(a -> who.mayActIn(a.getOwnerId())).orElse(false);
    }

    /** The reason as stored: trimmed, 1 to {@value #MAX_MOTIVO} characters, no control characters. */
    static String motivo(@Nullable String motivo) {
        String reason = motivo == null ? "" : motivo.strip();
        if (reason.isEmpty()) {
            throw new SanctionRefused(Reason.MOTIVO_MISSING);
        }
        if (reason.codePointCount(0, reason.length()) > MAX_MOTIVO) {
            throw new SanctionRefused(Reason.MOTIVO_TOO_LONG);
        }
        if (reason.chars().anyMatch(Character::isISOControl)) {
            throw new SanctionRefused(Reason.MOTIVO_INVALID);
        }
        return reason;
    }

    /** The audit line's subject: which sanction, of whom, where, until when (no address). */
    static String describe(Sanction sanction) {
        return "sanción #" + sanction.id() + " de usuario #" + sanction.userId()
                + (sanction.isGlobal() ? " en todas las aplicaciones" : " en la aplicación " + sanction.clientId())
                + (sanction.hasta() == null ? ", permanente" : ", hasta " + WHEN.format(sanction.hasta()))
                + ": " + sanction.motivo();
    }
}
