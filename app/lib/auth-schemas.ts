import { z } from "zod";

// One schema per form, used by the action and (for hints and limits) by the page.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const email = z
  .string({ required_error: "Enter your email." })
  .trim()
  .min(1, "Enter your email.")
  .max(254, "That email is too long.")
  .email("Enter a valid email address.")
  .transform((e) => e.toLowerCase());

// Any Unicode, never trimmed or truncated; the length is counted in code points.
export const password = z
  .string({ required_error: "Enter your password." })
  .refine((p) => Array.from(p).length >= PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`)
  .refine((p) => Array.from(p).length <= PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

// Honeypot: a field people never see; bots fill it.
export const honeypot = z.string().max(0, "Please leave this field empty.").optional();

export const SigninSchema = z.object({
  email,
  password: z.string().min(1, "Enter your password.").max(1024, "That password is too long."),
  next: z.string().optional(),
  website: honeypot,
});

export const SignupSchema = z.object({
  email,
  password,
  // The referrer's username from an /airdrop link (hidden field); one that names nobody is ignored.
  ref: z.string().default(""),
  website: honeypot,
});
