package com.example.identity.guestaccount;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;

import com.example.identity.account.AccountService;
import com.example.identity.account.GuestAccounts;
import com.example.identity.account.UserAccount;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;

/**
 * Guest players (decisions §24): the {@code guests} and {@code guest_conversions} tables. A guest is made for one
 * application ({@link #create}, for {@code POST /oauth/invitado.php}), its last use is stamped when its tokens are
 * issued ({@link #used}), and {@code POST /api/invitados/convertir.php} gives it a single-use code
 * ({@link #conversionCode}) for the page where the person keeps the progress: the code is spent when that page
 * opens ({@link #redeem}), and the sign-up or the other provider's login there converts the same account
 * ({@link #convertBySignUp}, {@link #convertByProvider}; the account's side is account/GuestAccounts). Spent and
 * expired codes are purged a day after they expired; idle guests by {@link IdleGuests}.
 */
@Service
public class Guests implements Purge {

    /** How long the conversion address is good for (the {@code expires_in} of the answer). */
    public static final Duration CONVERSION_TTL = Duration.ofMinutes(10);
    /** The last use is written at most this often per guest. */
    static final Duration USE_RESOLUTION = Duration.ofMinutes(1);

    private final JdbcTemplate jdbc;
    private final GuestAccounts accounts;
    private final AccountService accountService;
    private final Clock clock;

    Guests(JdbcTemplate jdbc, GuestAccounts accounts, AccountService accountService, Clock clock) {
        this.jdbc = jdbc;
        this.accounts = accounts;
        this.accountService = accountService;
        this.clock = clock;
    }

    /**
     * A new guest of application {@code clientId}: its account ({@code Invitado NNNN}, no address, {@code passwordHash}
     * from {@link #unusablePasswordHash}, made before the transaction) and its row.
     */
    @Transactional
    public UserAccount create(String clientId, String passwordHash) {
        UserAccount guest = accounts.create(clientId, passwordHash);
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.update("insert into guests (user_id, client_id, created_at, last_used_at) values (?, ?, ?, ?)",
                guest.getId(), clientId, now, now);
        return guest;
    }

    /** The hash of a random password nobody knows, for a new guest: an Argon2id hash, so outside any transaction. */
    public String unusablePasswordHash() {
        return accounts.unusablePasswordHash();
    }

    /** Tokens were issued to guest {@code userId} (a refresh): its last use, at most once a minute. */
    @Transactional
    public void used(long userId) {
        Instant now = clock.instant();
        jdbc.update("update guests set last_used_at = ? where user_id = ? and last_used_at < ?", Timestamp.from(now),
                userId, Timestamp.from(now.minus(USE_RESOLUTION)));
    }

    /**
     * A single-use code (256 random bits, stored as its digest) for the page where guest {@code userId} keeps its
     * progress, valid {@link #CONVERSION_TTL}; empty when the account is not a guest.
     */
    @Transactional
    public Optional<String> conversionCode(long userId) {
        if (accountService.findById(userId).filter(UserAccount::isGuest).isEmpty()) {
            return Optional.empty();
        }
        String code = Secrets.randomUrlSafe(32);
        Instant now = clock.instant();
        jdbc.update("insert into guest_conversions (code_digest, user_id, created_at, expires_at) values (?, ?, ?, ?)",
                Secrets.sha256Hex(code), userId, Timestamp.from(now), Timestamp.from(now.plus(CONVERSION_TTL)));
        used(userId);
        return Optional.of(code);
    }

    /**
     * Spends a conversion code, once, within its time: the guest it is for, while that account is still a guest;
     * empty for anything else (unknown, spent, expired, converted or deleted meanwhile).
     */
    @Transactional
    public Optional<UserAccount> redeem(String code) {
        if (code == null || !code.matches("[A-Za-z0-9_-]{43}")) {
            return Optional.empty();
        }
        String digest = Secrets.sha256Hex(code);
        Timestamp now = Timestamp.from(clock.instant());
        if (jdbc.update("update guest_conversions set used_at = ? where code_digest = ? and used_at is null and expires_at > ?",
                now, digest, now) != 1) {
            return Optional.empty();
        }
        List<Long> user = jdbc.queryForList("select user_id from guest_conversions where code_digest = ?", Long.class,
                digest);
        return user.stream().findFirst().flatMap(accountService::findById).filter(UserAccount::isGuest);
    }

    /** The application guest {@code userId} was made for, while it is a guest (its events go there, webhooks/). */
    @Transactional(readOnly = true)
    public Optional<String> applicationOf(long userId) {
        return jdbc.queryForList("select client_id from guests where user_id = ?", String.class, userId).stream().findFirst();
    }

    /** The guest account {@code userId}, if it still is one. */
    @Transactional(readOnly = true)
    public Optional<UserAccount> guest(long userId) {
        return accountService.findById(userId).filter(UserAccount::isGuest);
    }

    /**
     * The guest signed up from its conversion page and used the mailed link (decisions §18): the same account, role
     * {@code user}, the address proved, the name and password of the form; it is a guest no more.
     *
     * @throws GuestAccounts.NotAGuestException when the account is gone or no longer a guest
     * @throws AccountService.EmailAlreadyUsedException when the address has an account (nothing changed)
     */
    @Transactional
    public UserAccount convertBySignUp(long guestId, String primerNombre, String correo, String passwordHash) {
        UserAccount account = accounts.convertBySignUp(guestId, primerNombre, correo, passwordHash);
        jdbc.update("delete from guests where user_id = ?", guestId);
        return account;
    }

    /**
     * The guest logged in with another provider from its conversion page (decisions §19): the same account with the
     * provider's address ({@code emailVerified} when the provider, or a mailed link, proved it), and that identity
     * linked by {@code link}, all or nothing: when {@code link} answers false (the identity is someone's), nothing is
     * converted and empty is returned.
     *
     * @throws GuestAccounts.NotAGuestException when the account is gone or no longer a guest
     * @throws AccountService.EmailAlreadyUsedException when the address has an account (nothing changed)
     */
    @Transactional
    public Optional<UserAccount> convertByProvider(long guestId, String primerNombre, String correo,
            boolean emailVerified, String provider, LongPredicate link) {
        UserAccount account = accounts.convertByProvider(guestId, primerNombre, correo, emailVerified, provider);
        if (!link.test(guestId)) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return Optional.empty();
        }
        jdbc.update("delete from guests where user_id = ?", guestId);
        return Optional.of(account);
    }

    /**
     * What is stored about {@code userId} as a guest, for the download of {@code /cuenta/datos} (decisions §20): the
     * application it was made for while it is a guest, and the addresses its game asked for to keep its progress
     * (when, until when, used when; never the code).
     */
    @Transactional(readOnly = true)
    public Map<String, Object> personalData(long userId) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("aplicacion", applicationOf(userId).orElse(null));
        data.put("enlaces_para_guardar_progreso", jdbc.query("select created_at, expires_at, used_at from guest_conversions "
                + "where user_id = ? order by created_at", (rs, i) -> {
                    Map<String, Object> link = new LinkedHashMap<>();
                    link.put("creado", iso(rs.getTimestamp(1)));
                    link.put("caduca", iso(rs.getTimestamp(2)));
                    link.put("usado", iso(rs.getTimestamp(3)));
                    return link;
                }, userId));
        return data;
    }

    private static String iso(Timestamp time) {
        return time == null ? null : time.toInstant().toString();
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** The retention job: conversion codes that expired before {@code cutoff}, used or not. */
    @Override
    @Transactional
    public int purge(Instant cutoff, Instant now) {
        return jdbc.update("delete from guest_conversions where expires_at < ?", Timestamp.from(cutoff));
    }
}
