package com.example.identity.oauth.authorize;

import org.springframework.stereotype.Component;

import com.example.identity.minors.Minors;
import com.example.identity.sanctions.Sanctions;

/**
 * What keeps a person from an application's authorization request though they are logged in ({@link SanctionFilter}):
 * a sanction (decisions §26), a parent's consent not given yet (§27).
 */
@Component
record KeptOut(Sanctions sanctions, Minors minors) {
}
