/**
 * The entry point of the shipped policy pack (the `main` of `policy/package.json`): `run-policy-pack` loads it
 * with the pack's folder as working directory, where `PolicyPack` reads the pack's version.
 */
import { PolicyPack } from "@pulumi/policy";
import { POLICY_PACK_NAME, vendorContainerPolicies } from "./index";

new PolicyPack(POLICY_PACK_NAME, {
  description: "Standards for Vendor.Container clusters, backups, registries and volume attachments.",
  policies: vendorContainerPolicies(),
});
