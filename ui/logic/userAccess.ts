/**
 * Rules of the admin area's user and project-access forms (application.md §2 "Users tab", "Projects tab",
 * §5 "User form (admin)"): project permissions `project:{NAME}`, counts, valid-until per project and the
 * organisation-domain rule for a new user. Pure functions.
 */
import { type AdminUser, isOrganizationEmail, PROJECT_PERMISSION_PREFIX } from '../../api/contract';

/** The project permission identifier of a project name. */
export const projectIdentifier = (project: string) => `${PROJECT_PERMISSION_PREFIX}${project}`;

/** Number of projects a user has access to (application.md §2 "Access to projects (count)"). */
export function projectCount(user: AdminUser): number {
  return user.permissions.filter((p) => p.startsWith(PROJECT_PERMISSION_PREFIX)).length;
}

/** The valid-until of each project permission the user holds (null = permanent). */
export function validUntilOf(user: AdminUser): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const d of user.permissionData)
    if (d.identifier.startsWith(PROJECT_PERMISSION_PREFIX) && user.permissions.includes(d.identifier))
      out[d.identifier] = d.validUntil;
  return out;
}

/**
 * The permissions a new user starts with (application.md §5): an e-mail of the organisation domain gets
 * every project and upload:model; any other e-mail none (the server's rule, isOrganizationEmail).
 */
export function defaultPermissionsFor(email: string, organizationDomain: string, projects: string[]): string[] {
  if (!isOrganizationEmail(email, organizationDomain)) return [];
  return ['upload:model', ...projects.map(projectIdentifier)];
}
