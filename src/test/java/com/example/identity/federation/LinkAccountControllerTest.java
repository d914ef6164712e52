package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.ui.ExtendedModelMap;

import com.example.identity.abuse.LoginThrottle;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.signin.AccountLogin;

/**
 * {@code /login/vincular}'s password goes through the login throttle like the login page's: a locked
 * (address, account) pair is refused with 429 before the password is hashed or compared.
 */
class LinkAccountControllerTest {

    final AccountService accounts = mock(AccountService.class);
    final LoginThrottle throttle = mock(LoginThrottle.class);
    final LinkAccountController controller = new LinkAccountController(accounts, mock(LinkedIdentities.class),
            mock(AccountLogin.class), Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), throttle);

    @Test
    void aLockedPairIsRefusedBeforeThePasswordIsChecked() {
        UserAccount account = new UserAccount("Lara", "lara@example.com", "{hash}", Role.USER, Instant.EPOCH);
        when(accounts.findById(anyLong())).thenReturn(Optional.of(account));
        when(throttle.tryAcquire(any(jakarta.servlet.http.HttpServletRequest.class), anyString())).thenReturn(null);
        var request = new MockHttpServletRequest("POST", "/login/vincular");
        request.getSession(true).setAttribute(FederatedSession.PENDING_LINK,
                new FederatedSession.PendingLink("google", "Google", "sub-1", 7, "lara@example.com", null));
        var response = new MockHttpServletResponse();
        var model = new ExtendedModelMap();

        String view = controller.prove("my-password-here-1", request, response, model);

        assertThat(view).isEqualTo(LinkAccountController.VIEW);
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(model.getAttribute("throttled")).isEqualTo(true);
        assertThat(model.getAttribute("error")).isEqualTo(false);
        verify(throttle).tryAcquire(request, "lara@example.com");
        verify(accounts, never()).passwordMatches(anyLong(), any());
    }
}
