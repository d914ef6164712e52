"use strict";
// Passkeys (WebAuthn) for the login page and /cuenta/seguridad: the browser's navigator.credentials with
// Spring Security's endpoints. Binary fields travel as base64url; the page's CSRF token goes in a header.
(() => {
  const base64url = {
    encode(buffer) {
      let text = "";
      new Uint8Array(buffer).forEach((b) => { text += String.fromCharCode(b); });
      return btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    },
    decode(value) {
      const text = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
      return Uint8Array.from(text, (c) => c.charCodeAt(0)).buffer;
    }
  };

  function csrfToken() {
    const field = document.querySelector('input[name="_csrf"]');
    return field ? field.value : "";
  }

  async function postJson(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-TOKEN": csrfToken() },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    if (!response.ok) {
      const error = new Error("HTTP " + response.status);
      error.status = response.status;
      // a refusal that names a page to show (a suspended account: the login page says why and until when)
      error.body = await response.json().catch(() => null);
      throw error;
    }
    return response.json();
  }

  function show(id) {
    const element = document.getElementById(id);
    if (element) {
      element.hidden = false;
    }
  }

  async function logIn(button) {
    try {
      const options = await postJson("/webauthn/authenticate/options");
      options.challenge = base64url.decode(options.challenge);
      options.allowCredentials = (options.allowCredentials || []).map((c) => ({ ...c, id: base64url.decode(c.id) }));
      const credential = await navigator.credentials.get({ publicKey: options });
      const answer = credential.response;
      const redirect = button.dataset.redirect;
      const result = await postJson("/login/webauthn" + (redirect ? "?redirect=" + encodeURIComponent(redirect) : ""), {
        id: credential.id,
        rawId: base64url.encode(credential.rawId),
        response: {
          authenticatorData: base64url.encode(answer.authenticatorData),
          clientDataJSON: base64url.encode(answer.clientDataJSON),
          signature: base64url.encode(answer.signature),
          userHandle: answer.userHandle ? base64url.encode(answer.userHandle) : undefined
        },
        credType: credential.type,
        clientExtensionResults: credential.getClientExtensionResults(),
        authenticatorAttachment: credential.authenticatorAttachment
      });
      if (!result.authenticated) {
        throw new Error("refused");
      }
      window.location.href = result.redirectUrl;
    } catch (e) {
      if (e.body && e.body.redirectUrl) {
        window.location.href = e.body.redirectUrl;
        return;
      }
      show("passkey-error");
    }
  }

  async function register(form) {
    const label = form.querySelector('input[name="label"]').value.trim();
    if (!label) {
      show("passkey-register-error");
      return;
    }
    try {
      const options = await postJson("/webauthn/register/options");
      options.challenge = base64url.decode(options.challenge);
      options.user = { ...options.user, id: base64url.decode(options.user.id) };
      options.excludeCredentials = (options.excludeCredentials || []).map((c) => ({ ...c, id: base64url.decode(c.id) }));
      const credential = await navigator.credentials.create({ publicKey: options });
      const answer = credential.response;
      const result = await postJson("/webauthn/register", {
        publicKey: {
          credential: {
            id: credential.id,
            rawId: base64url.encode(credential.rawId),
            response: {
              attestationObject: base64url.encode(answer.attestationObject),
              clientDataJSON: base64url.encode(answer.clientDataJSON),
              transports: answer.getTransports ? answer.getTransports() : []
            },
            type: credential.type,
            clientExtensionResults: credential.getClientExtensionResults(),
            authenticatorAttachment: credential.authenticatorAttachment
          },
          label
        }
      });
      if (!result.success) {
        throw new Error("refused");
      }
      window.location.href = "/cuenta/seguridad?llave=nueva";
    } catch (e) {
      if (e.status === 403) {
        // the login is no longer recent (or the session ended): the page asks for the password again
        window.location.reload();
        return;
      }
      show("passkey-register-error");
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const login = document.getElementById("passkey-login");
    const registration = document.getElementById("passkey-register-form");
    if (!window.PublicKeyCredential) {
      [login, registration].forEach((e) => { if (e) { e.hidden = true; } });
      return;
    }
    if (login) {
      login.hidden = false;
      login.addEventListener("click", () => logIn(login));
    }
    if (registration) {
      registration.addEventListener("submit", (event) => {
        event.preventDefault();
        register(registration);
      });
    }
  });
})();
