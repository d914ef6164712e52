package com.example.identity.deviceflow;

import java.time.Instant;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface DeviceAuthorizationRepository extends JpaRepository<DeviceAuthorization, String> {

    Optional<DeviceAuthorization> findByDeviceCodeDigest(String deviceCodeDigest);

    Optional<DeviceAuthorization> findByUserCodeDigest(String userCodeDigest);

    /** A poll at the expected pace, if no other poll of the same run came in between. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DeviceAuthorization d set d.lastPolledAt = :now where d.id = :id and d.lastPolledAt = :previous")
    int polled(@Param("id") String id, @Param("previous") Instant previous, @Param("now") Instant now);

    /** The first poll of a run. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DeviceAuthorization d set d.lastPolledAt = :now where d.id = :id and d.lastPolledAt is null")
    int firstPoll(@Param("id") String id, @Param("now") Instant now);

    /** RFC 8628 §3.5: a poll too early adds 5 seconds to the interval, for this and every later poll. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DeviceAuthorization d set d.pollInterval = d.pollInterval + 5, d.lastPolledAt = :now where d.id = :id")
    int slowDown(@Param("id") String id, @Param("now") Instant now);

    /** The user's decision on a pending, unexpired run: 1 when it was still pending, 0 when not. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DeviceAuthorization d set d.status = :status, d.userId = :userId, d.decidedAt = :now, "
            + "d.authTime = :authTime, d.amr = :amr "
            + "where d.id = :id and d.status = :pending and d.expiresAt > :now")
    int decide(@Param("id") String id, @Param("status") DeviceAuthorization.Status status, @Param("userId") long userId,
            @Param("now") Instant now, @Param("authTime") Instant authTime, @Param("amr") String amr,
            @Param("pending") DeviceAuthorization.Status pending);

    /** Spends an approved run for its tokens: 1 for the one poll that wins, 0 for any other. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update DeviceAuthorization d set d.status = :used where d.id = :id and d.status = :approved")
    int spend(@Param("id") String id, @Param("approved") DeviceAuthorization.Status approved,
            @Param("used") DeviceAuthorization.Status used);

    @Modifying
    @Query("delete from DeviceAuthorization d where d.expiresAt < :cutoff")
    int deleteExpiredBefore(@Param("cutoff") Instant cutoff);
}
