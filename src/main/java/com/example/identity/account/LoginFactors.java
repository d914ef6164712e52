package com.example.identity.account;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;

/**
 * How and when the user of a session logged in, from the factor authorities Spring Security 7 records on
 * its authentication: for the id_token's {@code auth_time} and {@code amr}, whether the login led to a
 * code (oauth/) or to a device's approval (deviceflow/).
 */
public final class LoginFactors {

    /**
     * The factor of a login with another provider (federation/, decisions §19): it counts as the login's time
     * (auth_time) and a recent proof; no RFC 8176 method is claimed for it (the provider's own is not known).
     */
    public static final String FEDERATED_AUTHORITY = "FACTOR_FEDERATED";

    private LoginFactors() {
    }

    /**
     * When {@code user} logged in: the time of its password, or of its passkey for a login without password,
     * or of the single-use link that logged it in (a confirmed sign-up); null when none is recorded.
     */
    public static @Nullable Instant passwordLoginTime(Authentication user) {
        Instant passkey = null;
        Instant link = null;
        for (GrantedAuthority authority : user.getAuthorities()) {
            if (authority instanceof FactorGrantedAuthority factor) {
                if (FactorGrantedAuthority.PASSWORD_AUTHORITY.equals(factor.getAuthority())) {
                    return factor.getIssuedAt();
                }
                if (FactorGrantedAuthority.WEBAUTHN_AUTHORITY.equals(factor.getAuthority())) {
                    passkey = factor.getIssuedAt();
                }
                // a single-use link that logged in (registration/: the sign-up's confirmation)
                if (FactorGrantedAuthority.OTT_AUTHORITY.equals(factor.getAuthority())
                        || FEDERATED_AUTHORITY.equals(factor.getAuthority())) {
                    link = factor.getIssuedAt();
                }
            }
        }
        return passkey != null ? passkey : link;
    }

    /**
     * When the user of this session last proved who they are: the latest of its factors (the password, a
     * passkey, a TOTP code), for changes that want a recent login (mfa/RecentLogin); null when none is recorded.
     */
    public static @Nullable Instant lastProofTime(Authentication user) {
        Instant last = null;
        for (GrantedAuthority authority : user.getAuthorities()) {
            if (authority instanceof FactorGrantedAuthority factor && factor.getIssuedAt() != null
                    && (last == null || factor.getIssuedAt().isAfter(last))) {
                last = factor.getIssuedAt();
            }
        }
        return last;
    }

    /**
     * RFC 8176 method references of the session's factors: {@code pwd} for a password, {@code otp} for a
     * one-time token or a TOTP code (signin/SecondStep), {@code hwk} for a passkey, and {@code mfa} when there are
     * several. A passkey is multi-factor by itself: this service requires its user verification (passkey/
     * PasskeyConfig), so it proves the device (possession) and the fingerprint, face or PIN that unlocked it
     * (inherence or knowledge), as NIST SP 800-63B's multi-factor cryptographic authenticators; a passkey
     * login is {@code hwk mfa}, which {@code acr_values=mfa} accepts.
     */
    public static Set<String> methods(Authentication user) {
        Set<String> found = new java.util.HashSet<>();
        for (GrantedAuthority authority : user.getAuthorities()) {
            if (authority instanceof FactorGrantedAuthority factor) {
                switch (factor.getAuthority()) {
                    case FactorGrantedAuthority.PASSWORD_AUTHORITY -> found.add("pwd");
                    case FactorGrantedAuthority.OTT_AUTHORITY, "FACTOR_TOTP" -> found.add("otp");
                    case FactorGrantedAuthority.WEBAUTHN_AUTHORITY -> found.add("hwk");
                    default -> { }
                }
            }
        }
        // always in this order, whatever the order of the authorities: pwd, otp, hwk, then mfa
        Set<String> amr = new LinkedHashSet<>();
        for (String method : new String[] { "pwd", "otp", "hwk" }) {
            if (found.contains(method)) {
                amr.add(method);
            }
        }
        if (amr.size() > 1 || amr.contains("hwk")) {
            amr.add("mfa");
        }
        return amr;
    }
}
