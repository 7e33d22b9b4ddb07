import { z } from 'zod';
import { LANGUAGES, PASSWORD_MIN_LENGTH } from '../constants.js';
import { canonicalTimezone, isCountryCode, isValidTimezone } from '../geo/timezone.js';
import { isWellFormedText, singleLineText } from '../validation/text.js';

/**
 * Account rules of spec section 5, written once: the server validates requests with these schemas and
 * the web forms validate fields with the same ones. Messages are i18n keys (`validation.*`), which the
 * web app translates and the server returns as they are.
 */
export const emailSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(254, { error: 'validation.tooLong' })
  .pipe(z.email({ error: 'validation.email' }))
  .transform((e) => e.toLowerCase());

export const passwordSchema = z
  .string({ error: 'validation.required' })
  .min(PASSWORD_MIN_LENGTH, { error: 'validation.passwordMin' })
  .max(200, { error: 'validation.tooLong' })
  .refine(isWellFormedText, { error: 'validation.invalidText' });

export const countrySchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .refine(isCountryCode, { error: 'validation.country' })
  .transform((c) => c.toUpperCase());

export const timezoneSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .refine(isValidTimezone, { error: 'validation.timezone' })
  // Stored canonical: one value per zone, however it was typed.
  .transform((tz) => canonicalTimezone(tz) as string);

export const languageSchema = z.enum(LANGUAGES, { error: 'validation.language' });

export const fullNameSchema = singleLineText(100);
/** The profile's full name: required there (spec section 5: required fields cannot be empty). */
export const requiredFullNameSchema = fullNameSchema.min(1, { error: 'validation.required' });

/** Sign-in: spec section 5's "Password: at least 4 characters" holds for every password field, this one too. */
export const loginRequestSchema = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const registerRequestSchema = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  fullName: fullNameSchema.optional(),
  country: countrySchema,
  language: languageSchema.optional(),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** Profile update: the email cannot change, so it is not accepted here. */
export const updateProfileRequestSchema = z.strictObject({
  fullName: requiredFullNameSchema,
  country: countrySchema,
  timezone: timezoneSchema,
  language: languageSchema,
});
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const forgotPasswordRequestSchema = z.strictObject({ email: emailSchema });
export const resetPasswordRequestSchema = z.strictObject({
  token: z.string().min(10, { error: 'validation.required' }).max(200),
  password: passwordSchema,
});
export const verifyTokenRequestSchema = z.strictObject({
  api_token: z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(4096),
});

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  fullName: z.string(),
  country: z.string(),
  timezone: z.string(),
  language: languageSchema,
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

/**
 * Field-level error as every 4xx answer carries it in `errors`: the English `message` for API users and,
 * where one exists, the message `key` (`validation.*`, `errors.*`) the web app translates.
 */
export const apiErrorSchema = z.object({ field: z.string().optional(), message: z.string(), key: z.string().optional() });
export type ApiFieldError = z.infer<typeof apiErrorSchema>;
export const apiErrorResponseSchema = z.object({
  statusCode: z.number(),
  error: z.string(),
  message: z.string(),
  errors: z.array(apiErrorSchema),
});
export type ApiErrorResponse = z.infer<typeof apiErrorResponseSchema>;
