package com.example.identity.minors;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.MailFiles;

/**
 * Minors' pages (decisions §27) in headless Chromium, in Spanish and in English, a screenshot of each under
 * {@code target/screenshots/menores-*.png}: a 12-year-old's sign-up (the form asking the parent's address once the
 * date says so), the child's link, the parent's page from the mailed link with its two buttons, the answer, and the
 * confirmation mail's withdrawal page; the English run refuses.
 */
class MinorsBrowserIT extends BrowserTest {

    static final Pattern SIGN_UP = Pattern.compile("https?://[^/\\s]+(/registro/confirmar\\?token=[A-Za-z0-9_-]{43})");
    static final Pattern CONSENT = Pattern.compile("https?://[^/\\s]+(/tutor/consentir\\?token=[A-Za-z0-9_-]{43})");

    @Autowired
    AccountService accounts;

    @Autowired
    BirthDates birthDates;

    /** A 12-year-old signs up in this browser, in {@code lang}, and uses their own link; the child's address. */
    String childSignsUp(String lang, String name, String tutor) throws Exception {
        String email = "menor-" + UUID.randomUUID() + "@example.com";
        LocalDate twelve = birthDates.today().minusYears(12).minusMonths(1);
        browser.get(base() + "/registro?lang=" + lang);
        browser.findElement(By.id("correo")).sendKeys(email);
        browser.findElement(By.id("primer_nombre")).sendKeys(name);
        Chromium.fillDate(browser, By.id("fecha_nacimiento"), twelve.toString());
        browser.findElement(By.id("password")).sendKeys("a-childs-password-1");
        Chromium.submit(browser, By.cssSelector("#signup-form button[type=submit]"));
        // the form comes back asking the parent's address, what was typed kept
        assertThat(Chromium.find(browser, By.id("correo_tutor-error")).getText()).isEqualTo("es".equals(lang)
                ? "Como tienes menos de 14 años, escribe el correo de tu madre, padre o tutor: le pediremos permiso"
                : "As you are under 14, type the e-mail address of your parent or guardian: we will ask them for their permission");
        assertThat(browser.findElement(By.id("fecha_nacimiento")).getAttribute("value")).isEqualTo(twelve.toString());
        Chromium.screenshot(browser, "menores-registro-tutor-" + lang);
        browser.findElement(By.id("correo_tutor")).sendKeys(tutor);
        browser.findElement(By.id("password")).sendKeys("a-childs-password-1");
        Chromium.submit(browser, By.cssSelector("#signup-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("signup-sent")).getText()).contains(email);

        Matcher link = SIGN_UP.matcher(MailFiles.text(MailFiles.newest(email, "es".equals(lang) ? "Confirma tu cuenta"
                : "Confirm your account")));
        assertThat(link.find()).isTrue();
        browser.get(base() + link.group(1));
        Chromium.submit(browser, By.cssSelector("#signup-confirm-form button[type=submit]"));
        browser.get(base() + "/cuenta/");
        assertThat(browser.getPageSource()).contains(email);
        // the account page says that it waits for the parent, and offers to mail the parent again
        assertThat(browser.findElement(By.id("awaiting-parental-consent")).getText()).contains(tutor);
        assertThat(browser.findElement(By.cssSelector("#parental-mail-resend button")).getText()).isEqualTo("es".equals(lang)
                ? "Volver a enviar el correo a mi madre, padre o tutor" : "Send the e-mail to my parent or guardian again");
        Chromium.screenshot(browser, "menores-cuenta-" + lang);
        return email;
    }

    String parentsLink(String tutor, String subject) throws Exception {
        Matcher link = CONSENT.matcher(MailFiles.text(MailFiles.newest(tutor, subject)));
        assertThat(link.find()).isTrue();
        return link.group(1);
    }

    @Test
    void aParentAllowsInSpanishThenWithdrawsFromTheConfirmationMail() throws Exception {
        String tutor = "madre-" + UUID.randomUUID() + "@example.com";
        String email = childSignsUp("es", "Lía", tutor);
        browser.manage().deleteAllCookies();

        browser.get(base() + parentsLink(tutor, "¿Das permiso a Lía para tener una cuenta?"));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Permiso de madre, padre o tutor");
        assertThat(browser.findElement(By.id("tutor-child")).getText()).startsWith("«Lía» (" + email
                + ") ha creado una cuenta en el servicio de identidad");
        assertThat(browser.findElement(By.cssSelector("button[name=decision][value=allow]")).getText()).isEqualTo("Autorizar");
        assertThat(browser.findElement(By.cssSelector("button[name=decision][value=deny]")).getText()).isEqualTo("Rechazar");
        Chromium.screenshot(browser, "menores-tutor-es");
        Chromium.submit(browser, By.cssSelector("button[name=decision][value=allow]"));
        assertThat(Chromium.find(browser, By.id("tutor-allowed")).getText()).isEqualTo("Gracias: la cuenta de «Lía» ya puede "
                + "usarse. Te hemos enviado un correo con un enlace para retirar el permiso cuando quieras.");
        Chromium.screenshot(browser, "menores-tutor-autorizado-es");

        browser.get(base() + parentsLink(tutor, "Has autorizado la cuenta de Lía"));
        assertThat(browser.findElement(By.cssSelector("button[name=decision][value=withdraw]")).getText())
                .isEqualTo("Retirar el permiso");
        Chromium.screenshot(browser, "menores-tutor-retirar-es");
        Chromium.submit(browser, By.cssSelector("button[name=decision][value=withdraw]"));
        assertThat(Chromium.find(browser, By.id("tutor-withdrawn")).getText())
                .isEqualTo("Permiso retirado: la cuenta de «Lía» se ha desactivado.");
        assertThat(accounts.findByEmail(email).orElseThrow().isEnabled()).isFalse();
    }

    @Test
    void aParentRefusesInEnglish() throws Exception {
        String tutor = "parent-" + UUID.randomUUID() + "@example.com";
        String email = childSignsUp("en", "Kim", tutor);
        browser.manage().deleteAllCookies();

        browser.get(base() + parentsLink(tutor, "Do you allow Kim to have an account?") + "&lang=en");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Permission of a parent or guardian");
        assertThat(browser.findElement(By.id("tutor-child")).getText()).startsWith("«Kim» (" + email
                + ") has created an account on the identity service");
        assertThat(browser.findElement(By.cssSelector("button[name=decision][value=allow]")).getText()).isEqualTo("Allow");
        assertThat(browser.findElement(By.cssSelector("button[name=decision][value=deny]")).getText()).isEqualTo("Refuse");
        Chromium.screenshot(browser, "menores-tutor-en");
        Chromium.submit(browser, By.cssSelector("button[name=decision][value=deny]"));
        assertThat(Chromium.find(browser, By.id("tutor-denied")).getText())
                .isEqualTo("Done: the account of «Kim» has been deleted with all its data.");
        Chromium.screenshot(browser, "menores-tutor-rechazado-en");
        assertThat(accounts.findByEmail(email)).isEmpty();
    }
}
