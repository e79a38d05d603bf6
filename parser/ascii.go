package parser

// isASCII reports whether s has no byte at or above 0x80. It reads 32
// bytes at a time.
func isASCII(s string) bool {
	for len(s) >= 32 {
		if (load64(s)|load64(s[8:])|load64(s[16:])|load64(s[24:]))&0x8080808080808080 != 0 {
			return false
		}
		s = s[32:]
	}
	for len(s) >= 8 {
		if load64(s)&0x8080808080808080 != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// load64 reads the first eight bytes of s as a little-endian word; the
// compiler turns it into one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
