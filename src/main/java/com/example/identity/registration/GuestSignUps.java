package com.example.identity.registration;

import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.interceptor.TransactionAspectSupport;

import com.example.identity.account.AccountService;
import com.example.identity.account.GuestAccounts;
import com.example.identity.account.UserAccount;
import com.example.identity.guestaccount.Guests;
import com.example.identity.registration.Registrations.Confirmation;
import com.example.identity.registration.Registrations.Outcome;

/**
 * The sign-ups that keep a guest's progress (decisions §24), beside {@link Registrations}: what the link's page says
 * of one ({@link #state}) and what its link does ({@link #convert}): the guest becomes that account, the same id, or
 * nothing happens when the address is someone's or the guest is gone.
 */
@Component
class GuestSignUps {

    private final Guests guests;
    private final AccountService accounts;
    private final IdentitySignUp.Links links;

    GuestSignUps(Guests guests, AccountService accounts, IdentitySignUp.Links links) {
        this.guests = guests;
        this.accounts = accounts;
        this.links = links;
    }

    /**
     * The guest a waiting sign-up converts: its name, or the page's refusal ({@link Outcome#LINK_UNUSABLE} when it is
     * gone or no guest any more, {@link Outcome#GUEST_ADDRESS_TAKEN} when the address has an account).
     */
    Either state(long guestId, String correo) {
        Optional<UserAccount> guest = guests.guest(guestId);
        if (guest.isEmpty()) {
            return new Either(null, Outcome.LINK_UNUSABLE);
        }
        if (accounts.findByEmail(correo).isPresent()) {
            return new Either(null, Outcome.GUEST_ADDRESS_TAKEN);
        }
        return new Either(guest.get().getPrimerNombre(), null);
    }

    /** A guest's name, or why the page refuses. */
    record Either(@Nullable String guestName, @Nullable Outcome refused) {
    }

    /**
     * The link of a guest's sign-up, in the caller's transaction: the guest becomes this account (and another
     * provider's identity is linked); else the transaction rolls back and the answer says why.
     */
    Confirmation convert(long guestId, String name, String correo, @Nullable String passwordHash,
            @Nullable String provider, @Nullable String subject) {
        try {
            Optional<UserAccount> converted = provider == null
                    ? Optional.of(guests.convertBySignUp(guestId, name, correo, passwordHash))
                    : guests.convertByProvider(guestId, name, correo, true, provider, user -> links.link(user, provider, subject));
            if (converted.isPresent()) {
                return new Confirmation(Outcome.CONVERTED, converted.get(), null, null);
            }
        }
        catch (AccountService.EmailAlreadyUsedException raced) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return new Confirmation(Outcome.GUEST_ADDRESS_TAKEN, null, null, null);
        }
        catch (GuestAccounts.NotAGuestException gone) {
            // converted by another link, or deleted: nothing happens
        }
        TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
        return new Confirmation(Outcome.LINK_UNUSABLE, null, null, null);
    }
}
