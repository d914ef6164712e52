package com.example.identity.keys;

import java.time.Instant;
import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface SigningKeyRepository extends JpaRepository<SigningKeyRecord, String> {

    /** Every stored key, the one that signs last first. */
    List<SigningKeyRecord> findAllByOrderByActivatesAtDesc();

    /** Drops keys that stopped signing before {@code cutoff}. */
    @Modifying
    @Query("delete from SigningKeyRecord k where k.retiredAt < :cutoff")
    int deleteRetiredBefore(Instant cutoff);
}
