package com.example.identity.account;

import java.time.LocalDate;

import org.jspecify.annotations.Nullable;

/**
 * Published by {@link AccountAdministration#update} inside its transaction, before the update's other changes, when an
 * admin gives an account (never a guest's) a birth date (decisions §27, D50). {@code minors/} owns birth dates and
 * parental consents and listens synchronously: it keeps the date, asks the parent at {@code tutor} when the date is a
 * child's under the consent age, or forgets a consent no longer needed. Its refusal (a child's date without a usable
 * parent's address) is an exception that undoes the whole update: all or nothing.
 */
public record BirthDateSet(long userId, String correo, String primerNombre, LocalDate birth, @Nullable String tutor) {
}
