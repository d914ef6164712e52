package com.example.identity.leaving;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.test.context.TestComponent;
import org.springframework.context.event.EventListener;

import com.example.identity.account.AccountDeleted;

/** The {@link AccountDeleted} events the application published, on whichever thread (the request's). */
@TestComponent
class DeletedAccounts {

    private final List<AccountDeleted> seen = new CopyOnWriteArrayList<>();

    @EventListener
    void on(AccountDeleted event) {
        seen.add(event);
    }

    List<AccountDeleted> of(long userId) {
        return seen.stream().filter(e -> e.userId() == userId).toList();
    }
}
