package com.example.identity.support;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium for browser tests, from Debian's {@code chromium} and {@code chromium-driver}
 * packages (Selenium Manager is never asked to download a browser). Without them a test is skipped and
 * says why; with {@code IDENTITY_BROWSER_TESTS=required} (set by {@code .ci/run}) it fails instead.
 */
public final class Chromium {

    static final Path BROWSER = Path.of(System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getenv().getOrDefault("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private Chromium() {
    }

    /** What is missing to run a browser, or null when Chromium and chromedriver are both there. */
    static String missing() {
        if (Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER)) {
            return null;
        }
        if (!Files.isExecutable(BROWSER) && !Files.isExecutable(DRIVER)) {
            return BROWSER + " and " + DRIVER + " are missing";
        }
        return (Files.isExecutable(BROWSER) ? DRIVER : BROWSER) + " is missing";
    }

    /** Whether browser tests must run ({@code IDENTITY_BROWSER_TESTS=required}, as {@code .ci/run} sets). */
    static boolean required() {
        return "required".equals(System.getenv("IDENTITY_BROWSER_TESTS"));
    }

    static String skipReason(String missing) {
        return "Browser tests did not run: " + missing + " (apt-get install chromium chromium-driver, or set "
                + "CHROMIUM_BIN and CHROMEDRIVER_BIN)";
    }

    /**
     * A new headless Chromium. Test classes marked {@link NeedsChromium} are skipped before they get here when it
     * is missing; this check stays for any other caller.
     */
    public static WebDriver start() {
        String missing = missing();
        if (missing != null) {
            String why = skipReason(missing);
            if (required()) {
                Assertions.fail(why);
            }
            System.out.println("WARNING: " + why);
            BrowserReport.skipped(missing);
            Assumptions.abort(why);
        }
        var options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--lang=es");
        // headless Chromium sends Accept-Language: en-US whatever --lang says, and the pages answer it (decisions §22)
        options.setExperimentalOption("prefs", java.util.Map.of("intl.accept_languages", "es"));
        var service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
        var driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    /** Saves what the browser shows to {@code target/screenshots/<name>.png}. */
    public static void screenshot(WebDriver driver, String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Clicks a button that submits a form and waits until the browser shows the answer: the old document
     * has gone (a click returns before the navigation starts, so a lookup right after it may still see the
     * page that sent the form).
     */
    public static void submit(WebDriver driver, By button) {
        WebElement page = driver.findElement(By.tagName("html"));
        driver.findElement(button).click();
        new WebDriverWait(driver, Duration.ofSeconds(15)).until(d -> gone(page));
    }

    /**
     * Whether the element's document has been replaced. Selenium's {@code stalenessOf} expects a
     * {@link StaleElementReferenceException}; Chromium sometimes answers a lookup on a node of a document
     * being replaced with "Node with given id does not belong to the document" instead, which means the same.
     */
    static boolean gone(WebElement element) {
        try {
            element.isEnabled();
            return false;
        }
        catch (StaleElementReferenceException e) {
            return true;
        }
        catch (WebDriverException e) {
            if (e.getMessage() != null && e.getMessage().contains("does not belong to the document")) {
                return true;
            }
            throw e;
        }
    }

    /** As {@link #submit}, for a button whose form asks {@code confirm()} first: accepts, then waits. */
    public static void submitConfirming(WebDriver driver, By button) {
        WebElement page = driver.findElement(By.tagName("html"));
        driver.findElement(button).click();
        Alert alert = new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.alertIsPresent());
        alert.accept();
        new WebDriverWait(driver, Duration.ofSeconds(15)).until(d -> gone(page));
    }

    /** The element, waiting up to 10 s for it to appear. */
    public static WebElement find(WebDriver driver, By by) {
        return new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(by));
    }

    /**
     * Fills a date field ({@code <input type="date">}) with {@code isoDate} ({@code YYYY-MM-DD}): what a person picks
     * in the calendar, set as the field's value, since the keys a date field takes depend on the browser's locale.
     */
    public static void fillDate(WebDriver driver, By field, String isoDate) {
        ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                driver.findElement(field), isoDate);
    }
}
