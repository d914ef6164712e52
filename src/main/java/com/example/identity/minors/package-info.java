/**
 * Minors and parental consent (decisions §27, docs/minors.md): birth dates ({@code birth_dates}), ages on the
 * service's clock, {@code identity.minors.*}.
 */
@NullMarked
package com.example.identity.minors;

import org.jspecify.annotations.NullMarked;
