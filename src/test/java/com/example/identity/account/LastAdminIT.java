package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.support.IntegrationTest;

/**
 * Two admins who demote, disable or delete each other (or themselves) at the same moment never leave the service
 * without an enabled admin (issue 39), on whichever database the run uses (PostgreSQL in {@code .ci/run}'s second
 * pass). The race is played, not hoped for: each change is held, once it has checked and before it commits (at
 * its {@link AccountChanged}, published after the check), until the other change has reached the same point or 3
 * seconds have passed. Without a lock both checks pass before either change commits; with the lock the second
 * change waits for the first before it counts, so the first is released by the timeout and the second refused.
 * The two admins are the only enabled ones while a race runs: every other admin of the shared test database is
 * disabled for it and enabled again after.
 */
@IntegrationTest
class LastAdminIT {

    /** The two changes of a race meet here, when armed. */
    static volatile CyclicBarrier checked;

    @TestConfiguration(proxyBeanMethods = false)
    static class HeldChanges {

        @Bean
        HoldAfterTheCheck holdAfterTheCheck() {
            return new HoldAfterTheCheck();
        }
    }

    static class HoldAfterTheCheck {

        @EventListener
        void changed(AccountChanged event) {
            CyclicBarrier armed = checked;
            if (armed == null) {
                return;
            }
            try {
                armed.await(3, TimeUnit.SECONDS);
            }
            catch (BrokenBarrierException | TimeoutException alone) {
                // the other change waits for this one's lock: it counts after this commits
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Autowired
    AccountService accounts;

    @Autowired
    AccountAdministration administration;

    @Autowired
    AccountDeletion deletion;

    @Autowired
    JdbcTemplate jdbc;

    long newAdmin() {
        return accounts.create("Admin", "admin-" + UUID.randomUUID() + "@example.com", "admin-password-123", Role.ADMIN)
                .getId();
    }

    long enabledAdminsAmong(long a, long b) {
        return jdbc.queryForObject("select count(*) from users where id in (?, ?) and rol = 'admin' and enabled = true",
                Long.class, a, b);
    }

    /** {@code first} and {@code second} at the same moment, {@code a} and {@code b} the only enabled admins. */
    <T> List<T> race(long a, long b, Callable<T> first, Callable<T> second) throws Exception {
        List<Long> others = jdbc.queryForList("select id from users where rol = 'admin' and enabled = true "
                + "and id not in (?, ?)", Long.class, a, b);
        others.forEach(id -> jdbc.update("update users set enabled = false where id = ?", id));
        checked = new CyclicBarrier(2);
        try {
            var one = CompletableFuture.supplyAsync(() -> call(first));
            var two = CompletableFuture.supplyAsync(() -> call(second));
            return List.of(one.get(90, TimeUnit.SECONDS), two.get(90, TimeUnit.SECONDS));
        }
        finally {
            checked = null;
            others.forEach(id -> jdbc.update("update users set enabled = true where id = ?", id));
        }
    }

    static <T> T call(Callable<T> change) {
        try {
            return change.call();
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void twoAdminsDemotingEachOtherAtTheSameMomentLeaveOneAdmin() throws Exception {
        long a = newAdmin();
        long b = newAdmin();

        List<Boolean> done = race(a, b, () -> administration.changeRole(new Caller(a, true), b, Role.USER),
                () -> administration.changeRole(new Caller(b, true), a, Role.USER));

        assertThat(done).containsExactlyInAnyOrder(true, false);
        assertThat(enabledAdminsAmong(a, b)).isEqualTo(1);
    }

    @Test
    void twoAdminsDeletingTheirOwnAccountsAtTheSameMomentLeaveOne() throws Exception {
        long a = newAdmin();
        long b = newAdmin();

        List<AccountDeletion.Outcome> done = race(a, b, () -> deletion.delete(a, new Caller(a, true)),
                () -> deletion.delete(b, new Caller(b, true)));

        assertThat(done).containsExactlyInAnyOrder(AccountDeletion.Outcome.DELETED, AccountDeletion.Outcome.NOT_ALLOWED);
        assertThat(enabledAdminsAmong(a, b)).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from users where id in (?, ?)", Long.class, a, b)).isEqualTo(1);
    }

    @Test
    void anAdminDisablingAnotherWhileThatOneDemotesThemLeavesOneAndTheApiSaysWhy() throws Exception {
        long a = newAdmin();
        long b = newAdmin();

        List<Object> done = this.<Object>race(a, b,
                () -> administration.update(new Caller(a, true), b, null, Boolean.FALSE, null, null, null),
                () -> administration.changeRole(new Caller(b, true), a, Role.DEVELOPER_API));

        assertThat(done).isIn(List.of(AccountAdministration.AdminOutcome.DONE, false),
                List.of(AccountAdministration.AdminOutcome.LAST_ADMIN, true));
        assertThat(enabledAdminsAmong(a, b)).isEqualTo(1);
    }

    @Test
    void anAdminDeletingAnotherWhileThatOneDemotesThemLeavesOne() throws Exception {
        long a = newAdmin();
        long b = newAdmin();

        List<Object> done = this.<Object>race(a, b, () -> administration.delete(new Caller(a, true), b),
                () -> administration.changeRole(new Caller(b, true), a, Role.USER));

        assertThat(done).isIn(List.of(AccountAdministration.AdminOutcome.DONE, false),
                List.of(AccountAdministration.AdminOutcome.LAST_ADMIN, true));
        assertThat(enabledAdminsAmong(a, b)).isEqualTo(1);
    }
}
