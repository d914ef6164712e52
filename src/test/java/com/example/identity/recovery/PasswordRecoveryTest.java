package com.example.identity.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountRecoveries;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.crypto.Secrets;

/** The link and budget rules of {@link PasswordRecovery}, its repository, accounts and mail mocked. */
class PasswordRecoveryTest {

    static final Instant NOW = Instant.parse("2025-05-05T10:00:00Z");
    static final String TOKEN = "A".repeat(43);

    PasswordResetRepository resets = mock(PasswordResetRepository.class);
    AccountRecoveries accounts = mock(AccountRecoveries.class);
    RecoveryLinkMail mail = mock(RecoveryLinkMail.class);
    TransactionTemplate transactions = mock(TransactionTemplate.class);
    ApplicationEventPublisher events = mock(ApplicationEventPublisher.class);
    PasswordRecovery recovery;
    UserAccount ana;

    @BeforeEach
    void setUp() {
        when(transactions.execute(any())).thenAnswer(call -> call.<TransactionCallback<?>>getArgument(0).doInTransaction(null));
        recovery = new PasswordRecovery(resets, accounts, mail, transactions, events, Clock.fixed(NOW, ZoneOffset.UTC),
                new SimpleMeterRegistry());
        ana = new UserAccount("Ana", "ana@example.com", "hash", Role.USER, NOW);
        ReflectionTestUtils.setField(ana, "id", 5L);
    }

    @AfterEach
    void stop() {
        recovery.destroy();
    }

    /** Waits (5 s at most) until the background threads have handled every request made so far. */
    void drained() throws InterruptedException {
        var background = (java.util.concurrent.ExecutorService) ReflectionTestUtils.getField(recovery, "background");
        background.shutdown();
        assertThat(background.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    PasswordReset link(Instant created) {
        var reset = new PasswordReset(5, Secrets.sha256Hex(TOKEN), created, created.plus(PasswordRecovery.LIFETIME));
        ReflectionTestUtils.setField(reset, "id", 11L);
        return reset;
    }

    @Test
    void aLinkIsSentAsADigestValidThirtyMinutes() throws InterruptedException {
        when(accounts.findByEmail("ana@example.com")).thenReturn(Optional.of(ana));
        recovery.request("ana@example.com");
        drained();
        var token = ArgumentCaptor.forClass(String.class);
        verify(mail).send(eq(ana), token.capture(), eq(Locale.forLanguageTag("es")));
        assertThat(token.getValue()).matches("[A-Za-z0-9_-]{43}");
        var saved = ArgumentCaptor.forClass(PasswordReset.class);
        verify(resets).save(saved.capture());
        assertThat(saved.getValue()).hasFieldOrPropertyWithValue("tokenDigest", Secrets.sha256Hex(token.getValue()))
                .hasFieldOrPropertyWithValue("expiresAt", NOW.plus(Duration.ofMinutes(30)));
        verify(resets).countSentSince(5, NOW.minus(Duration.ofHours(1)));
    }

    @Test
    void theFourthLinkOfTheHourIsNotSent() throws InterruptedException {
        when(accounts.findByEmail("ana@example.com")).thenReturn(Optional.of(ana));
        when(resets.countSentSince(5, NOW.minus(Duration.ofHours(1)))).thenReturn(3L);
        recovery.request("ana@example.com");
        drained();
        verify(resets).countSentSince(anyLong(), any());
        verify(resets, never()).save(any());
        verify(mail, never()).send(any(), anyString(), any());
    }

    @Test
    void noAccountNoLinkAndTheSameAnswer() throws InterruptedException {
        when(accounts.findByEmail("nadie@example.com")).thenReturn(Optional.empty());
        recovery.request("nadie@example.com");
        drained();
        verify(accounts).findByEmail("nadie@example.com");
        verifyNoInteractions(resets, mail);
    }

    @Test
    void aDisabledAccountIsSentNothing() throws InterruptedException {
        ana.disable(NOW);
        when(accounts.findByEmail("ana@example.com")).thenReturn(Optional.of(ana));
        recovery.request("ana@example.com");
        drained();
        verifyNoInteractions(resets, mail);
    }

    @Test
    void onlyWellFormedUnexpiredUnusedLinksWork() {
        when(resets.findByTokenDigest(Secrets.sha256Hex(TOKEN))).thenReturn(Optional.of(link(NOW.minusSeconds(60))));
        assertThat(recovery.isUsable(TOKEN)).isTrue();
        assertThat(recovery.isUsable(null)).isFalse();
        assertThat(recovery.isUsable(TOKEN + "A")).as("44 characters").isFalse();
        assertThat(recovery.isUsable("A".repeat(42) + "=")).isFalse();
        verify(resets).findByTokenDigest(anyString()); // malformed tokens are not looked up

        when(resets.findByTokenDigest(Secrets.sha256Hex(TOKEN))).thenReturn(Optional.of(link(NOW.minus(Duration.ofMinutes(30)))));
        assertThat(recovery.isUsable(TOKEN)).as("expired exactly now").isFalse();
    }

    @Test
    void aResetSetsThePasswordSpendsTheLinkAndEndsTheOthers() {
        when(resets.findByTokenDigest(Secrets.sha256Hex(TOKEN))).thenReturn(Optional.of(link(NOW)));
        when(resets.use(11, NOW)).thenReturn(1);
        assertThat(recovery.reset(TOKEN, "nueva-contrasena")).isTrue();
        verify(accounts).recoverPassword(5, "nueva-contrasena");
        verify(resets).endAll(5, NOW);
    }

    @Test
    void aLinkUsedMeanwhileRollsTheResetBack() {
        when(resets.findByTokenDigest(Secrets.sha256Hex(TOKEN))).thenReturn(Optional.of(link(NOW)));
        when(resets.use(11, NOW)).thenReturn(0);
        assertThatThrownBy(() -> recovery.reset(TOKEN, "nueva-contrasena")).isInstanceOf(PasswordRecovery.LinkUsedMeanwhile.class);
        verify(resets, never()).endAll(anyLong(), any());
    }

    @Test
    void anUnknownLinkSetsNothing() {
        assertThat(recovery.reset(TOKEN, "nueva-contrasena")).isFalse();
        verify(accounts, never()).recoverPassword(anyLong(), anyString());
    }
}
