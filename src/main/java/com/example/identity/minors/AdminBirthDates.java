package com.example.identity.minors;

import java.time.LocalDate;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.example.identity.account.BirthDateSet;
import com.example.identity.audit.AuditEvent;

/**
 * An admin sets the birth date of an account (D50: {@code POST /api/usuarios/update.php}'s {@code fecha_nacimiento}, the
 * admin page's form), heard synchronously in the transaction of account/'s update, before its other changes, so that a
 * refusal here undoes them all. The date is kept (the first, or in place of the one it had); a child's under the consent
 * age with no consent on record asks the parent exactly as a sign-up does ({@link ParentalConsents#ask}: pending, the mail,
 * 7 days); one at or above the age drops a consent no longer needed ({@link ParentalConsents#notNeeded}). The caches of
 * {@link Minors} are evicted on every instance. The audit line names the account, never the date.
 */
@Component
class AdminBirthDates {

    private final BirthDates birthDates;
    private final ParentalConsents consents;
    private final Minors minors;
    private final ApplicationEventPublisher events;

    AdminBirthDates(BirthDates birthDates, ParentalConsents consents, Minors minors, ApplicationEventPublisher events) {
        this.birthDates = birthDates;
        this.consents = consents;
        this.minors = minors;
        this.events = events;
    }

    /**
     * @throws RefusedField with field {@value ParentalConsents#FIELD}: a child's date, no consent on record, and no usable
     *         parent's address
     */
    @EventListener
    void onBirthDateSet(BirthDateSet set) {
        long userId = set.userId();
        LocalDate birth = set.birth();
        if (birthDates.of(userId).filter(birth::equals).isPresent()) {
            return; // the same date: nothing changes
        }
        boolean child = birthDates.needsConsent(birth);
        // a consent on record stays as it is under the age: a waiting request keeps its parent and its 7 days
        @Nullable String tutor = child && consents.of(userId).isEmpty() ? consents.checkTutorForAdmin(set.tutor(), set.correo()) : null;
        birthDates.set(userId, birth);
        minors.changed(userId);
        if (tutor != null) {
            consents.ask(userId, set.primerNombre(), set.correo(), birth, tutor);
        }
        else if (!child) {
            consents.notNeeded(userId);
        }
        events.publishEvent(new AuditEvent(AuditEvent.Type.BIRTH_DATE_SET, "usuario #" + userId));
    }
}
